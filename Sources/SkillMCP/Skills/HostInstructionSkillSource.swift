import SkillCalls
import SkillHostCore
import SkillJSON

/// The instruction skills the host has enabled (its skills folder, the registry's decisions), served
/// through the MCP Skills extension — and, with ``remote``, the skills the registry's MCP servers serve
/// (re-exported at `skill://<server>/<path>/SKILL.md`, each file verified against the server's entry when
/// read; docs/mcp-sources.md "Their skills too").
public struct HostInstructionSkillSource: InstructionSkillSource {
    /// The host.
    public let host: SkillHost
    /// The MCP servers' skills to serve too (nil: only the local ones).
    public let remote: MCPSkillCatalog?

    /// A source over `host`, and over `remote`'s servers' skills when given.
    public init(host: SkillHost, remote: MCPSkillCatalog? = nil) {
        self.host = host
        self.remote = remote
    }

    public func skills() throws -> [MCPInstructionSkill] {
        let local = try host.catalog().enabledInstructions.map { record in
            let skill = try host.instructionSkill(record.id)
            return MCPInstructionSkill(
                name: skill.name, frontmatter: skill.frontmatter, folder: skill.folder,
                files: skill.files.map { MCPInstructionSkillFile(path: $0.path, sha256: $0.sha256, size: Int($0.size)) }
                    .sorted { $0.path < $1.path })
        }
        guard let remote else { return local }
        // Only skills with digests under skill:// (a "dynamic" skill has nothing to verify a re-export by).
        let served = remote.usableNow().filter { !$0.isDynamic && $0.uri.hasPrefix("skill://") }.map { entry in
            MCPInstructionSkill(
                name: entry.name, frontmatter: entry.frontmatter, folder: remote.cache.folder(of: entry),
                files: (entry.files ?? []).map { MCPInstructionSkillFile(path: $0.path, sha256: $0.sha256, size: Int($0.size)) },
                path: entry.server + "/" + entry.skillPath)
        }
        return local + served
    }

    public func read(skill name: String, file path: String) throws -> [UInt8] {
        if let remote, let slash = name.firstIndex(of: "/") {
            // A re-exported skill: `<server>/<path>` is the qualified name `<server>:<path>`.
            return try remote.readNow(String(name[..<slash]) + ":" + String(name[name.index(after: slash)...]), path: path)
        }
        var bytes: [UInt8] = []
        var offset = 0
        while true {
            let chunk = try host.readInstructionFile(skill: name, path: path, offset: offset, limit: 1 << 20)
            bytes += chunk.bytes
            offset += chunk.bytes.count
            if chunk.bytes.isEmpty || Int64(offset) >= chunk.size { return bytes }
        }
    }

    /// The skills folder and the registry (which enables and disables skills).
    public var watchedPaths: [String] { [host.paths.skills, host.paths.registry] + host.paths.projectSkillFolders }
}
