import SkillHostCore
import SkillJSON

/// The instruction skills the host has enabled (its skills folder, the registry's decisions), served
/// through the MCP Skills extension.
public struct HostInstructionSkillSource: InstructionSkillSource {
    /// The host.
    public let host: SkillHost

    /// A source over `host`.
    public init(host: SkillHost) { self.host = host }

    public func skills() throws -> [MCPInstructionSkill] {
        try host.catalog().enabledInstructions.map { record in
            let skill = try host.instructionSkill(record.id)
            return MCPInstructionSkill(
                name: skill.name, frontmatter: skill.frontmatter, folder: skill.folder,
                files: skill.files.map { MCPInstructionSkillFile(path: $0.path, sha256: $0.sha256, size: Int($0.size)) }
                    .sorted { $0.path < $1.path })
        }
    }

    public func read(skill name: String, file path: String) throws -> [UInt8] {
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
