import SkillJSON

/// A ``ModelProvider`` for the Anthropic Messages API (`POST /v1/messages`): tools as `tool_use` /
/// `tool_result` blocks, SSE streaming (with one whole-answer retry when a stream is unusable), bounded
/// retries for 429 (honouring `retry-after`), 5xx and 529, and one-line errors mapped like the OpenAI
/// provider's, so a turn reads the same — same events, same cards — whichever provider runs it.
public struct AnthropicProvider: ModelProvider {
    /// Where and how to connect.
    public let configuration: AnthropicConfiguration
    private let transport: any HTTPTransport
    private let sleeper: @Sendable (Double) async throws -> Void
    private let fallback = StreamingFallback()

    /// A provider for `configuration` over `transport` (URLSession by default).
    public init(
        configuration: AnthropicConfiguration, transport: any HTTPTransport = URLSessionTransport(),
        sleeper: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .milliseconds(Int64($0 * 1000))) }
    ) {
        self.configuration = configuration
        self.transport = transport
        self.sleeper = sleeper
    }

    public var name: String { "anthropic:\(configuration.model)" }

    public func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ModelStreamEvent.self, throwing: (any Error).self)
        let task = Task {
            do throws(ModelProviderError) {
                try await perform(request) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Sends the request, retrying what may be retried, and reports the reply through `yield`.
    func perform(_ request: ModelRequest, yield: (ModelStreamEvent) -> Void) async throws(ModelProviderError) {
        let encoder = AnthropicRequestEncoder(model: configuration.model, maxTokens: configuration.maxTokens)
        var stream = configuration.stream && fallback.streams
        var attempt = 0
        var wholeRetried = false
        while true {
            let body = encoder.body(for: request, stream: stream).serializedBytes()
            var headers = [
                "Content-Type": "application/json", "Accept": stream ? "text/event-stream" : "application/json",
                "anthropic-version": AnthropicConfiguration.apiVersion,
            ]
            if let key = configuration.apiKey, !key.isEmpty { headers["x-api-key"] = key }
            let httpRequest = HTTPRequest(
                url: configuration.messagesURL, headers: headers, body: body, idleTimeout: configuration.idleTimeout)
            let (head, bytes) = try await transport.send(httpRequest)
            if head.status == 200 {
                let usable = try await readReply(head: head, bytes: bytes, streamed: stream, yield: yield)
                guard !usable, !wholeRetried else { return }
                if fallback.switchOff() { yield(.notice("\(host) sent an unusable stream; streaming is off for this session")) }
                stream = false
                wholeRetried = true
                continue
            }
            let errorBody = try await OpenAIProvider.collect(bytes, limit: 64 * 1024)
            let detail = AnthropicResponseDecoder.errorSummary(from: errorBody)
            if let explained = ServerValidationError.explain(status: head.status, detail: detail, host: host) { throw explained }
            let failure = error(for: head, detail: detail)
            guard let delay = retryDelay(for: head, attempt: attempt) else { throw failure }
            attempt += 1
            do {
                try await sleeper(delay)
            } catch {
                throw ModelProviderError(.cancelled, "the request was cancelled while waiting to retry")
            }
        }
    }

    /// Reads a `200` answer; returns false (having yielded nothing) when a stream carried nothing usable.
    private func readReply(
        head: HTTPResponseHead, bytes: AsyncThrowingStream<[UInt8], any Error>, streamed: Bool,
        yield: (ModelStreamEvent) -> Void
    ) async throws(ModelProviderError) -> Bool {
        let contentType = head.headers["content-type"]?.lowercased() ?? ""
        if !contentType.contains("text/event-stream") {
            let body = try await OpenAIProvider.collect(bytes, limit: 16 * 1024 * 1024)
            if streamed, body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return false }
            let reply = try AnthropicResponseDecoder.reply(from: body)
            if !reply.content.isEmpty { yield(.token(reply.content)) }
            yield(.reply(reply))
            return true
        }
        var decoder = ServerSentEventDecoder()
        var accumulator = AnthropicStreamAccumulator()
        var yieldedTokens = false
        func handle(_ payload: String) throws(ModelProviderError) {
            let token = try accumulator.add(payload)
            if !token.isEmpty {
                yieldedTokens = true
                yield(.token(token))
            }
        }
        do {
            for try await chunk in bytes {
                for payload in decoder.feed(chunk) where !accumulator.finished { try handle(payload) }
                if accumulator.finished { break }
            }
        } catch let error as ModelProviderError {
            throw error
        } catch {
            throw Task.isCancelled
                ? ModelProviderError(.cancelled, "the request was cancelled")
                : ModelProviderError(.transport, "the stream from \(host) broke off: \(error)")
        }
        if !accumulator.finished, let payload = decoder.finish() { try handle(payload) }
        if Task.isCancelled { throw ModelProviderError(.cancelled, "the request was cancelled") }
        if !yieldedTokens, !accumulator.sawContent || !accumulator.finished { return false }
        yield(.reply(accumulator.reply))
        return true
    }

    /// The base URL for messages, without any `user:password@` part.
    private var host: String { OpenAIConfiguration.redacted(configuration.baseURL) }

    /// The error for a failed status, in one line with the server's own message.
    func error(for head: HTTPResponseHead, detail: String) -> ModelProviderError {
        let said = detail.isEmpty ? "" : " (server said: \(detail))"
        let status = head.status
        switch status {
        case 401, 403:
            return ModelProviderError(
                .unauthorized,
                "\(host) refused the API key (HTTP \(status))\(said); set ANTHROPIC_API_KEY to a valid key for this server",
                status: status)
        case 404:
            return ModelProviderError(
                .notFound,
                "model '\(configuration.model)' or endpoint not found at \(host) (HTTP 404)\(said); check --model/SKILLHOST_MODEL and --base-url/ANTHROPIC_BASE_URL",
                status: status)
        case 429:
            let wait = head.headers["retry-after"].map { " after \($0) s" } ?? " later"
            return ModelProviderError(
                .rateLimited,
                "\(host) is rate-limiting requests (HTTP 429)\(said); try again\(wait) or lower the request rate",
                status: status)
        case 500...599:
            return ModelProviderError(
                .server,
                "\(host) failed with HTTP \(status) after \(configuration.maxRetries + 1) attempts\(said); try again later or check the service status",
                status: status)
        default:
            return ModelProviderError(
                .badRequest, "\(host) rejected the request with HTTP \(status)\(said); check the model supports tool use",
                status: status)
        }
    }

    /// Seconds to wait before retrying, or nil when this failure is final.
    func retryDelay(for head: HTTPResponseHead, attempt: Int) -> Double? {
        guard attempt < configuration.maxRetries else { return nil }
        switch head.status {
        case 429:
            let advised = head.headers["retry-after"].flatMap { Double($0.trimmingWhitespace()) }
            let delay = advised ?? configuration.initialRetryDelay * Double(1 << attempt)
            return delay <= configuration.maxRetryDelay ? max(0, delay) : nil
        case 500...599:
            return min(configuration.initialRetryDelay * Double(1 << attempt), configuration.maxRetryDelay)
        default:
            return nil
        }
    }
}
