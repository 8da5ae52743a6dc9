/// The MCP protocol revisions this server speaks, and the `initialize` negotiation
/// (spec 2025-11-25, basic/lifecycle: the server answers with the client's version when it supports it,
/// otherwise with the latest it supports).
public enum MCPProtocolVersion {
    /// Revisions negotiated through `initialize`, newest first.
    public static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The revision that replaced `initialize` by `server/discover` and per-request `_meta` versions.
    public static let discoverVersion = "2026-07-28"
    /// Revisions served per request (stateless: each request names its version in `_meta`).
    public static let statelessVersions = [discoverVersion]
    /// Every revision `server/discover` reports, newest first.
    public static let supported = statelessVersions + handshakeVersions
    /// The newest revision `initialize` can settle on.
    public static var latest: String { handshakeVersions[0] }

    /// The version to answer `initialize` with.
    public static func negotiate(_ requested: String?) -> String {
        guard let requested, handshakeVersions.contains(requested) else { return latest }
        return requested
    }
}
