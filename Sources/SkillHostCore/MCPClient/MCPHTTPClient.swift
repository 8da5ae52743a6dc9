/// What the MCP client needs of an HTTP client to reach a Streamable HTTP server (docs/mcp-sources.md,
/// "HTTP servers"): one request, its response head as soon as it arrives and its body as it streams (so
/// server-sent events reach the client as the server flushes them). The host's one HTTP client (TLS through
/// OpenSSL verified against the system's certificates, proxies from the environment, idle timeouts) lives
/// above this layer, with the model providers; the CLI hands it in (``MCPServerLauncher/httpClient``).
public protocol MCPHTTPClient: Sendable {
    /// Sends `method` to `url` with `headers` and `body`; fails when nothing arrives for `idleTimeout` seconds.
    /// - Throws: ``HostError`` (`io` when the server cannot be reached or the connection breaks, `timeout`,
    ///   `cancelled`) with a message that names the endpoint.
    /// No event (nor chunk) may grow past `maximumEventBytes`: the stream then fails with ``HostError``
    /// (`invalidResult`).
    func send(
        method: String, url: String, headers: [String: String], body: [UInt8], idleTimeout: Double, maximumEventBytes: Int
    ) async throws(HostError) -> MCPHTTPResponse
}

/// A response: status, header fields (names lower-cased) and the body as it arrives. For a
/// `text/event-stream` body each element is one event's `data` (the host's one SSE decoder splits it);
/// otherwise elements are chunks of bytes.
public struct MCPHTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    /// Whether the body is server-sent events (then each element of ``body`` is one event's data).
    public var isEventStream: Bool
    public var body: AsyncThrowingStream<[UInt8], any Error>

    public init(status: Int, headers: [String: String], isEventStream: Bool, body: AsyncThrowingStream<[UInt8], any Error>) {
        self.status = status
        self.headers = headers
        self.isEventStream = isEventStream
        self.body = body
    }
}
