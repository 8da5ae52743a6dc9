import SkillJSON

/// A ``ModelProvider`` for the Anthropic Messages API (`POST /v1/messages`): tools as `tool_use` /
/// `tool_result` blocks, SSE streaming (with one whole-answer retry when a stream is unusable), bounded
/// retries for 429 (honouring `retry-after`), 5xx and 529, and one-line errors mapped like the OpenAI
/// provider's, so a turn reads the same — same events, same cards — whichever provider runs it
/// (``ModelAPIClient`` does the sending for both; this file holds the wire format).
public struct AnthropicProvider: ModelProvider {
    /// Where and how to connect.
    public let configuration: AnthropicConfiguration
    private let client: ModelAPIClient<AnthropicWireFormat>

    /// A provider for `configuration` over `transport` (``SocketHTTPTransport`` by default).
    public init(
        configuration: AnthropicConfiguration, transport: any HTTPTransport = URLSessionTransport(),
        sleeper: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .milliseconds(Int64($0 * 1000))) }
    ) {
        self.configuration = configuration
        client = ModelAPIClient(
            format: AnthropicWireFormat(configuration: configuration), configuration: configuration, transport: transport,
            sleeper: sleeper)
    }

    public var name: String { "anthropic:\(configuration.model)" }

    public func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        client.respond(to: request)
    }

    /// The error for a failed status, in one line with the server's own message.
    func error(for head: HTTPResponseHead, detail: String) -> ModelProviderError {
        client.error(for: head, detail: detail)
    }
}

/// The Messages API on the wire: `x-api-key` and `anthropic-version`, the body from
/// ``AnthropicRequestEncoder``, answers through ``AnthropicResponseDecoder`` and, streamed,
/// ``AnthropicStreamAccumulator`` up to `message_stop`.
struct AnthropicWireFormat: ModelWireFormat {
    let configuration: AnthropicConfiguration

    var endpoint: String { configuration.messagesURL }

    func headers(streaming: Bool) -> [String: String] {
        var headers = [
            "Content-Type": "application/json", "Accept": streaming ? "text/event-stream" : "application/json",
            "anthropic-version": AnthropicConfiguration.apiVersion,
        ]
        if let key = configuration.apiKey, !key.isEmpty { headers["x-api-key"] = key }
        return headers
    }

    func body(for request: ModelRequest, streaming: Bool) -> [UInt8] {
        AnthropicRequestEncoder(model: configuration.model, maxTokens: configuration.maxTokens).body(for: request, stream: streaming)
            .serializedBytes()
    }

    func reply(from body: [UInt8]) throws(ModelProviderError) -> ModelReply {
        try AnthropicResponseDecoder.reply(from: body)
    }

    func errorSummary(from body: [UInt8]) -> String {
        AnthropicResponseDecoder.errorSummary(from: body)
    }

    func makeStreamReader() -> AnthropicStreamAccumulator { AnthropicStreamAccumulator() }

    var emptyStreamReason: String { "sent an unusable stream" }

    var hints: FailureHints {
        FailureHints(
            keyVariable: "ANTHROPIC_API_KEY", notFound: "check --model/SKILLHOST_MODEL and --base-url/ANTHROPIC_BASE_URL",
            serverFailure: "try again later or check the service status", rejected: "check the model supports tool use")
    }
}

extension AnthropicStreamAccumulator: ModelStreamReader {
    var isFinished: Bool { finished }

    var unusableReason: String? { sawContent && finished ? nil : "sent an unusable stream" }
}
