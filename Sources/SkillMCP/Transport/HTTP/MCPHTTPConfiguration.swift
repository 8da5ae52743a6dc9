/// How `skillhost mcp --http` answers: its endpoint, who may call it, and its bounds per token.
public struct MCPHTTPConfiguration: Sendable {
    /// The MCP endpoint's path.
    public var path = "/mcp"
    /// `Origin` values accepted besides the server's own host (DNS-rebinding protection): a request with
    /// any other `Origin` is refused with 403. Requests without `Origin` (non-browser clients) pass.
    public var allowedOrigins: [String] = []
    /// The server's public URL of the endpoint (`https://mcp.example.com/mcp`): the Protected Resource
    /// Metadata's `resource` and the audience tokens must name. Nil: made from each request's `Host`.
    public var resource: String?
    /// Authorization servers named in the Protected Resource Metadata (RFC 9728), for deployments with an
    /// identity provider.
    public var authorizationServers: [String] = []
    /// Requests of one token in flight at once; more are answered 429.
    public var maximumRequestsPerToken = 64
    /// Sessions of clients that `initialize` (revisions before 2026-07-28) kept at once; the least recently
    /// used ends beyond this.
    public var maximumSessions = 1024
    /// Whether TLS is on (for the URLs the server names).
    public var secure = false
    /// Logs one line per request.
    public var verbose = false
    /// How often a quiet SSE stream gets a keep-alive comment.
    public var keepAliveInterval: Duration = .seconds(15)

    /// The defaults.
    public init() {}
}
