import Foundation
import SkillJSON

/// Where the verified files of MCP servers' skills are kept (docs/mcp-sources.md "Their skills too"):
/// `<cache>/mcp-skills/<server>/<digest of the uri>-<skill name>/<path>`, so the same `uri` from two servers
/// lands in two folders and the server is recoverable from the path; outside every skills folder (nothing
/// in it is ever discovered as a local skill). Files are written atomically once verified; a file read back
/// is hashed again and used only when it still matches the entry (the extension's cache rule), otherwise
/// it is fetched again.
public struct MCPSkillCache: Sendable {
    /// The root folder (`<cache>/mcp-skills`).
    public let root: String

    /// The cache under a host's cache folder.
    public init(paths: HostPaths) { root = paths.cache + "/mcp-skills" }

    /// The folder of one skill of one server.
    public func folder(of entry: MCPSkillEntry) -> String {
        root + "/" + entry.server + "/" + FileDigest.sha256(of: Array(entry.uri.utf8)).prefix(16) + "-" + Self.safeName(entry.name)
    }

    /// The cached bytes of `file`, only when they still have its size and digest.
    public func cached(_ file: MCPSkillEntry.File, of entry: MCPSkillEntry) -> [UInt8]? {
        let path = folder(of: entry) + "/" + file.path
        guard let bytes = try? Posix.readFile(atPath: path, limit: Int(file.size) + 1), Int64(bytes.count) == file.size,
              FileDigest.sha256(of: bytes) == file.sha256
        else { return nil }
        return bytes
    }

    /// Keeps verified bytes (a failure to write only costs a later fetch).
    public func store(_ bytes: [UInt8], as file: MCPSkillEntry.File, of entry: MCPSkillEntry) {
        try? Posix.writeFileAtomically(folder(of: entry) + "/" + file.path, bytes: bytes, mode: file.path.hasPrefix("scripts/") ? 0o755 : 0o644)
    }

    /// Removes a server's cached skills (when the server is removed).
    public func remove(server: String) {
        try? FileManager.default.removeItem(atPath: root + "/" + server)
    }

    private static func safeName(_ name: String) -> String {
        String(name.unicodeScalars.map { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" ? Character($0) : "_" }.prefix(64))
    }
}
