/// One HTTP request, in plain values.
public struct HTTPRequest: Sendable {
    /// The absolute URL.
    public var url: String
    /// `POST`, `GET`, …
    public var method: String
    /// Header fields (the API key travels here and nowhere else).
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]
    /// Seconds without any data before the request fails.
    public var idleTimeout: Double

    /// A request with these parts.
    public init(url: String, method: String = "POST", headers: [String: String] = [:], body: [UInt8] = [], idleTimeout: Double = 60) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
    }
}

/// The start of an HTTP response: status, reason phrase and header fields (names lowercased).
public struct HTTPResponseHead: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The reason phrase of the status line as sent ("" when none was, and from transports that do not
    /// keep it).
    public var reason: String

    /// A head with these parts.
    public init(status: Int, headers: [String: String], reason: String = "") {
        self.status = status
        self.headers = headers
        self.reason = reason
    }
}

/// Sends HTTP requests and streams response bodies as they arrive (needed for SSE).
///
/// Implementation requirements: thread-safe; the body stream ends when the response is complete and
/// throws ``ModelProviderError`` on failure; ending the iteration early cancels the request.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response head once it arrives, with the body still streaming.
    func send(_ request: HTTPRequest) async throws(ModelProviderError)
        -> (HTTPResponseHead, AsyncThrowingStream<[UInt8], any Error>)
}
