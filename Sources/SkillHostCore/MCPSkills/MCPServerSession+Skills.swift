import Foundation
import SkillJSON

/// The client side of the Skills extension (SEP-2640) on one server: whether it declares the extension,
/// its `skills/list` (every page), and `resources/read` of one file. Nothing here is fetched before it is
/// needed: listing asks `skills/list` only.
extension MCPServerSession {
    /// How long one of these requests may take.
    static let skillsTimeout: Double = 30

    /// Whether the server declares `io.modelcontextprotocol/skills` (starts it when it is not running).
    public func declaresSkills() async throws(HostError) -> Bool {
        try await capabilities()["extensions"]?[MCPSkillEntry.extensionID] != nil
    }

    /// The server's `skills/list`, every page (at most 10,000 entries), as raw entries.
    public func listSkills() async throws(HostError) -> [JSONValue] {
        var entries: [JSONValue] = []
        var cursor: JSONValue?
        repeat {
            let result = try await request(
                "skills/list", params: cursor.map { ["cursor": $0] } ?? [:], timeout: Self.skillsTimeout)
            entries += result["skills"]?.arrayValue ?? []
            cursor = result["nextCursor"]
        } while cursor != nil && cursor != .null && entries.count < 10_000
        return entries
    }

    /// The bytes of the resource `uri` (`resources/read`): its text as UTF-8, or its base64 `blob` decoded.
    /// At most `limit` bytes are accepted.
    public func readResource(_ uri: String, limit: Int64) async throws(HostError) -> [UInt8] {
        let result = try await request("resources/read", params: ["uri": .string(uri)], timeout: Self.skillsTimeout)
        guard let content = result["contents"]?.arrayValue?.first(where: { $0["uri"]?.stringValue == uri })
                ?? result["contents"]?.arrayValue?.first
        else {
            throw HostError(.invalidResult, "MCP server \(entry.name) answered resources/read of \(uri) without contents", pluginID: entry.name)
        }
        let bytes: [UInt8]
        if let text = content["text"]?.stringValue {
            bytes = Array(text.utf8)
        } else if let blob = content["blob"]?.stringValue, let data = Data(base64Encoded: blob) {
            bytes = Array(data)
        } else {
            throw HostError(.invalidResult, "MCP server \(entry.name) answered resources/read of \(uri) with neither text nor a base64 blob", pluginID: entry.name)
        }
        guard Int64(bytes.count) <= limit else {
            throw HostError(.invalidResult, "MCP server \(entry.name) sent \(bytes.count) bytes for \(uri), over the \(limit) accepted", pluginID: entry.name)
        }
        return bytes
    }
}
