import SkillJSON

/// A ``ModelProvider`` for OpenAI-compatible Chat Completions servers (OpenAI, Ollama's and llama.cpp's
/// `/v1`): tools and `tool_choice`, SSE streaming with a whole-answer fallback, bounded retries for 429 (honouring
/// `retry-after`) and 5xx, and one-line errors for 401 and 404 (``ModelAPIClient`` does the sending; this
/// file holds the wire format).
public struct OpenAIProvider: ModelProvider {
    /// Where and how to connect.
    public let configuration: OpenAIConfiguration
    private let client: ModelAPIClient<OpenAIWireFormat>

    /// A provider for `configuration` over `transport` (``SocketHTTPTransport`` by default).
    public init(
        configuration: OpenAIConfiguration, transport: any HTTPTransport = URLSessionTransport(),
        sleeper: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .milliseconds(Int64($0 * 1000))) }
    ) {
        self.configuration = configuration
        client = ModelAPIClient(
            format: OpenAIWireFormat(configuration: configuration), configuration: configuration, transport: transport, sleeper: sleeper)
    }

    public var name: String { "openai:\(configuration.model)" }

    public func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        client.respond(to: request)
    }

    /// The error for a failed status, in one line with the server's own message.
    func error(for head: HTTPResponseHead, detail: String) -> ModelProviderError {
        client.error(for: head, detail: detail)
    }
}

/// Chat Completions on the wire: `Authorization: Bearer`, the body from ``OpenAIRequestEncoder``, answers
/// through ``OpenAIResponseDecoder`` and, streamed, ``StreamedReplyAccumulator`` up to `[DONE]`.
struct OpenAIWireFormat: ModelWireFormat {
    let configuration: OpenAIConfiguration

    var endpoint: String { configuration.chatCompletionsURL }

    func headers(streaming: Bool) -> [String: String] {
        var headers = ["Content-Type": "application/json", "Accept": streaming ? "text/event-stream" : "application/json"]
        if let key = configuration.apiKey, !key.isEmpty { headers["Authorization"] = "Bearer " + key }
        return headers
    }

    func body(for request: ModelRequest, streaming: Bool) -> [UInt8] {
        OpenAIRequestEncoder(model: configuration.model).body(for: request, stream: streaming).serializedBytes()
    }

    func reply(from body: [UInt8]) throws(ModelProviderError) -> ModelReply {
        try OpenAIResponseDecoder.reply(from: body)
    }

    func errorSummary(from body: [UInt8]) -> String {
        OpenAIResponseDecoder.errorSummary(from: body)
    }

    func makeStreamReader() -> StreamReader { StreamReader() }

    var emptyStreamReason: String { "answered a streamed request with an empty body" }

    var hints: FailureHints {
        FailureHints(
            keyVariable: "OPENAI_API_KEY", notFound: "check --model/SKILLHOST_MODEL and that --base-url ends in /v1",
            serverFailure: "try again later or check the server's log", rejected: "check the model supports tool calls")
    }

    /// A Chat Completions stream: deltas until `data: [DONE]`.
    struct StreamReader: ModelStreamReader {
        private var accumulator = StreamedReplyAccumulator()
        private(set) var isFinished = false

        mutating func add(_ payload: String) throws(ModelProviderError) -> String {
            if payload.trimmingWhitespace() == "[DONE]" {
                isFinished = true
                return ""
            }
            return try accumulator.add(payload)
        }

        var unusableReason: String? {
            if !accumulator.sawDelta { return "sent a stream without a single delta" }
            if !isFinished, accumulator.reply.finishReason == nil { return "ended the stream before [DONE]" }
            return nil
        }

        var reply: ModelReply { accumulator.reply }
    }
}
