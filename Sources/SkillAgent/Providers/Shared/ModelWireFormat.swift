/// What one model API puts on the wire and how it reads back: the only part of a provider that is its own.
/// Everything around it (sending, retries, the streaming fallback, reading SSE, errors by status) is
/// ``ModelAPIClient``'s.
protocol ModelWireFormat: Sendable {
    /// Reads one streamed answer.
    associatedtype StreamReader: ModelStreamReader

    /// The URL requests go to.
    var endpoint: String { get }
    /// A request's header fields (content type, accept, key, version).
    func headers(streaming: Bool) -> [String: String]
    /// A request's JSON body.
    func body(for request: ModelRequest, streaming: Bool) -> [UInt8]
    /// A whole (not streamed) answer.
    func reply(from body: [UInt8]) throws(ModelProviderError) -> ModelReply
    /// The server's own message in an error body ("" when none).
    func errorSummary(from body: [UInt8]) -> String
    /// A reader for one streamed answer.
    func makeStreamReader() -> StreamReader
    /// Why an empty body to a streamed request is unusable, as the streaming-off notice words it.
    var emptyStreamReason: String { get }
    /// Whether a failed answer means the server cannot stream this request (it is sent again whole).
    func refusesStreaming(status: Int, detail: String) -> Bool
    /// The fixes that error messages name.
    var hints: FailureHints { get }
}

extension ModelWireFormat {
    /// A `400` whose message mentions streaming: llama.cpp's "Cannot use tools with stream", as it comes
    /// directly (Chat Completions) or through LiteLLM's Messages endpoint (an `invalid_request_error`
    /// quoting it).
    func refusesStreaming(status: Int, detail: String) -> Bool {
        status == 400 && detail.lowercased().contains("stream")
    }
}

/// Reads the data payloads of one streamed answer (server-sent events) into a reply.
protocol ModelStreamReader {
    /// Consumes one payload; returns the text it adds to the answer ("" for none).
    mutating func add(_ payload: String) throws(ModelProviderError) -> String
    /// Whether the stream said it is complete (later payloads are ignored).
    var isFinished: Bool { get }
    /// When the stream yielded no text: why it cannot be used (it is asked again whole), or nil when its
    /// reply stands.
    var unusableReason: String? { get }
    /// The reply so far.
    var reply: ModelReply { get }
}

/// The provider-specific fixes that the shared error messages name.
struct FailureHints: Sendable {
    /// The variable that holds the key (`OPENAI_API_KEY`).
    var keyVariable: String
    /// The fix for a 404 (model or URL not found).
    var notFound: String
    /// The fix for a 5xx after the retries.
    var serverFailure: String
    /// The fix for another rejected request.
    var rejected: String
}
