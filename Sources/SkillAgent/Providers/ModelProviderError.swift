/// Why a model request failed. Each message is one line that says what happened, where and how to fix it;
/// it never contains the API key.
public struct ModelProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// HTTP 401/403: the key is missing or wrong.
        case unauthorized
        /// HTTP 404: unknown model or wrong base URL.
        case notFound
        /// HTTP 429 after the allowed retries.
        case rateLimited
        /// HTTP 5xx after the allowed retries.
        case server
        /// Another HTTP status (400 and friends): the server did not accept the request.
        case badRequest
        /// No connection, DNS failure, connection reset.
        case transport
        /// No answer within the time limit.
        case timeout
        /// The server answered with something that is not a Chat Completions response.
        case invalidResponse
        /// The request was cancelled.
        case cancelled
    }

    /// The kind of failure.
    public var kind: Kind
    /// One line: what, where, how to fix.
    public var message: String
    /// The HTTP status, when there was one.
    public var status: Int?

    /// An error of this kind.
    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { message }
}
