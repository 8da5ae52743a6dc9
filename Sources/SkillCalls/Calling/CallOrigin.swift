/// Who made a call: the front end (`chat`, `mcp`, `call`, and the ones to come) and, when it has one, its
/// client (an MCP client's `clientInfo.name`). Recorded with every call and shown by `trace`.
public struct CallOrigin: Sendable, Equatable, Hashable {
    /// The front end's name, as the history stores it.
    public var frontEnd: String
    /// The client of the front end, when it has one.
    public var client: String?

    /// An origin with these parts.
    public init(frontEnd: String, client: String? = nil) {
        self.frontEnd = frontEnd
        self.client = client
    }

    /// `skillhost chat`: the agent.
    public static let chat = CallOrigin(frontEnd: "chat")
    /// `skillhost call`.
    public static let call = CallOrigin(frontEnd: "call")
    /// `skillhost mcp`, for the client that said its name in `initialize` (nil: it gave none).
    public static func mcp(client: String?) -> CallOrigin { CallOrigin(frontEnd: "mcp", client: client) }

    /// How `trace` shows it: `chat`, `call`, `mcp: Claude Desktop`.
    public var label: String { client.map { "\(frontEnd): \($0)" } ?? frontEnd }
}
