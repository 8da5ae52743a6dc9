import SkillHostCore

/// Where one request's answer and its notifications go, and who sent it: the stdio transport uses the
/// connection (``connection``); the HTTP transport gives each POST a context of its own, so answers reach
/// the request they belong to even when many clients use the same ids.
public struct MCPRequestContext: Sendable {
    /// Receives the response line (nil: the server's `send`).
    public var respond: MCPServer.Sink?
    /// Receives notifications about this request (progress; a listen stream's changes). Nil: `send`.
    public var notify: MCPServer.Sink?
    /// Keeps this exchange's request ids apart from other exchanges' (0: the connection's).
    public var scope: UInt64
    /// Who sent it (an HTTP bearer token), nil when nobody is checked (stdio: the user's own process).
    public var principal: MCPPrincipal?

    /// A context.
    public init(respond: MCPServer.Sink? = nil, notify: MCPServer.Sink? = nil, scope: UInt64 = 0, principal: MCPPrincipal? = nil) {
        self.respond = respond
        self.notify = notify
        self.scope = scope
        self.principal = principal
    }

    /// The connection's own context (stdio).
    public static let connection = MCPRequestContext()
}

/// Who made an HTTP request: the name of its token and what it may call.
public struct MCPPrincipal: Sendable, Equatable {
    /// The token's name (`skillhost token create NAME`).
    public var name: String
    /// The highest permission its skills may have: `read` tokens call `read` skills only; `write` tokens
    /// call `write` and `dangerous` skills too (which still need approval).
    public var scope: Permission

    /// A principal.
    public init(name: String, scope: Permission) {
        self.name = name
        self.scope = scope
    }

    /// Whether a skill of `permission` may be called with this token.
    public func allows(_ permission: Permission) -> Bool {
        scope == .read ? permission == .read : true
    }
}
