/// The skeleton every HTTP model provider shares: it sends the wire format's requests over an
/// ``HTTPTransport``, retries what ``RetryPolicy`` allows, reads whole or streamed (SSE) answers, switches
/// streaming off for the session when a server cannot stream (``StreamingFallback``, announced once: an
/// empty or unfinished stream, an empty answer to a request with tools, a `400` that blames streaming; the
/// request is sent again whole, once), and turns failed statuses into one-line ``ModelProviderError``s.
struct ModelAPIClient<Format: ModelWireFormat>: Sendable {
    /// What goes on the wire.
    let format: Format
    private let transport: any HTTPTransport
    private let sleeper: @Sendable (Double) async throws -> Void
    private let fallback = StreamingFallback()
    private let retry: RetryPolicy
    private let streams: Bool
    private let idleTimeout: Double
    private let model: String
    /// The base URL for messages, without credentials.
    let host: String

    /// A client for `format` with `configuration`'s limits.
    init(
        format: Format, configuration: some ProviderConfiguration, transport: any HTTPTransport,
        sleeper: @escaping @Sendable (Double) async throws -> Void
    ) {
        self.format = format
        self.transport = transport
        self.sleeper = sleeper
        retry = configuration.retryPolicy
        streams = configuration.stream
        idleTimeout = configuration.idleTimeout
        model = configuration.model
        host = configuration.redactedBaseURL
    }

    /// ``ModelProvider/respond(to:)``: runs the request in a task that ending the stream cancels.
    func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
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
        var stream = streams && fallback.streams
        var attempt = 0
        var wholeRetried = false
        while true {
            let httpRequest = HTTPRequest(
                url: format.endpoint, headers: format.headers(streaming: stream), body: format.body(for: request, streaming: stream),
                idleTimeout: idleTimeout)
            let (head, bytes) = try await transport.send(httpRequest)
            if head.status == 200 {
                let outcome = try await readReply(
                    head: head, bytes: bytes, streamed: stream, offersTools: !request.tools.isEmpty, yield: yield)
                guard case .unusableStream(let why) = outcome, !wholeRetried else { return }
                // Retried once without streaming, and remembered for the session.
                if fallback.switchOff() { yield(.notice("\(host) \(why); streaming is off for this session")) }
                stream = false
                wholeRetried = true
                continue
            }
            let errorBody = try await Self.collect(bytes, limit: 64 * 1024)
            let detail = format.errorSummary(from: errorBody)
            if stream, format.refusesStreaming(status: head.status, detail: detail) {
                // A server that cannot stream (with tools) still answers whole.
                if fallback.switchOff() { yield(.notice("\(host) cannot stream with tools; streaming is off for this session")) }
                stream = false
                continue
            }
            if let explained = ServerValidationError.explain(status: head.status, detail: detail, host: host) { throw explained }
            let failure = error(for: head, detail: detail)
            guard let delay = retry.delay(for: head, attempt: attempt) else { throw failure }
            attempt += 1
            do {
                try await sleeper(delay)
            } catch {
                throw ModelProviderError(.cancelled, "the request was cancelled while waiting to retry")
            }
        }
    }

    /// The most bytes read of one answer, whole or streamed: a server that never stops (or an endless
    /// event) fails the request instead of filling memory.
    static var maximumAnswerBytes: Int { 16 << 20 }

    /// The error for an answer over ``maximumAnswerBytes``.
    private var tooLarge: ModelProviderError {
        ModelProviderError(
            .invalidResponse,
            "\(host) sent an answer over \(Self.maximumAnswerBytes >> 20) MiB; check that the URL is a model server's and that the model's answers are bounded (max tokens)")
    }

    /// How reading a `200` answer ended.
    private enum ReplyOutcome {
        /// The reply was yielded.
        case complete
        /// A streamed answer that carried nothing usable (said why); nothing was yielded.
        case unusableStream(String)
    }

    private func readReply(
        head: HTTPResponseHead, bytes: AsyncThrowingStream<[UInt8], any Error>, streamed: Bool, offersTools: Bool,
        yield: (ModelStreamEvent) -> Void
    ) async throws(ModelProviderError) -> ReplyOutcome {
        let contentType = head.headers["content-type"]?.lowercased() ?? ""
        if !contentType.contains("text/event-stream") {
            let body = try await Self.collect(bytes, limit: Self.maximumAnswerBytes + 1)
            if body.count > Self.maximumAnswerBytes { throw tooLarge }
            if streamed, body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                return .unusableStream(format.emptyStreamReason)
            }
            let reply = try format.reply(from: body)
            if !reply.content.isEmpty { yield(.token(reply.content)) }
            yield(.reply(reply))
            return .complete
        }
        var decoder = ServerSentEventDecoder()
        var reader = format.makeStreamReader()
        var yieldedTokens = false
        func handle(_ payload: String) throws(ModelProviderError) {
            let token = try reader.add(payload)
            if !token.isEmpty {
                yieldedTokens = true
                yield(.token(token))
            }
        }
        var received = 0
        do {
            for try await chunk in bytes {
                received += chunk.count
                if received > Self.maximumAnswerBytes { throw tooLarge }
                for payload in decoder.feed(chunk) where !reader.isFinished { try handle(payload) }
                if reader.isFinished { break }
            }
        } catch let error as ModelProviderError {
            throw error
        } catch {
            throw Task.isCancelled
                ? ModelProviderError(.cancelled, "the request was cancelled")
                : ModelProviderError(.transport, "the stream from \(host) broke off: \(error)")
        }
        if !reader.isFinished, let payload = decoder.finish() { try handle(payload) }
        if Task.isCancelled { throw ModelProviderError(.cancelled, "the request was cancelled") }
        // Nothing shown yet and nothing to act on, or cut off before its end: ask again for a whole answer.
        if !yieldedTokens, let why = reader.unusableReason { return .unusableStream(why) }
        let reply = reader.reply
        if !yieldedTokens, offersTools, Self.isEmptyAnswer(reply) { return .unusableStream(Self.emptyAnswerReason) }
        yield(.reply(reply))
        return .complete
    }

    /// Whether a well-formed streamed reply holds nothing at all — no text, no tool call — and says it
    /// stopped normally (`stop`, or no reason). When the request offered tools, that is a server that could
    /// not stream with them and hid it: LiteLLM's Messages endpoint turns its backend's refusal (or empty
    /// stream) into one empty text block and `end_turn`. It is asked again whole. A reply cut by its token
    /// limit or a content filter says why itself and stands.
    static func isEmptyAnswer(_ reply: ModelReply) -> Bool {
        reply.content.isEmpty && reply.toolCalls.isEmpty && (reply.finishReason == nil || reply.finishReason == "stop")
    }

    /// Why an empty streamed answer to a request with tools is not used, as the streaming-off notice says it.
    static var emptyAnswerReason: String { "sent an empty streamed answer (no text, no tool call) to a request with tools" }

    /// The error for a failed status, in one line with the server's own message.
    func error(for head: HTTPResponseHead, detail: String) -> ModelProviderError {
        let said = detail.isEmpty ? "" : " (server said: \(detail))"
        let status = head.status
        let hints = format.hints
        switch status {
        case 401, 403:
            return ModelProviderError(
                .unauthorized,
                "\(host) refused the API key (HTTP \(status))\(said); set \(hints.keyVariable) to a valid key for this server",
                status: status)
        case 404:
            return ModelProviderError(
                .notFound, "model '\(model)' or endpoint not found at \(host) (HTTP 404)\(said); \(hints.notFound)", status: status)
        case 429:
            let wait = head.headers["retry-after"].map { " after \($0) s" } ?? " later"
            return ModelProviderError(
                .rateLimited, "\(host) is rate-limiting requests (HTTP 429)\(said); try again\(wait) or lower the request rate",
                status: status)
        case 500...599:
            return ModelProviderError(
                .server, "\(host) failed with HTTP \(status) after \(retry.maxRetries + 1) attempts\(said); \(hints.serverFailure)",
                status: status)
        default:
            return ModelProviderError(.badRequest, "\(host) rejected the request with HTTP \(status)\(said); \(hints.rejected)", status: status)
        }
    }

    /// The whole body, up to `limit` bytes.
    static func collect(_ bytes: AsyncThrowingStream<[UInt8], any Error>, limit: Int) async throws(ModelProviderError) -> [UInt8] {
        var body: [UInt8] = []
        do {
            for try await chunk in bytes {
                body.append(contentsOf: chunk.prefix(limit - body.count))
                if body.count >= limit { break }
            }
        } catch let error as ModelProviderError {
            throw error
        } catch {
            throw ModelProviderError(.transport, "reading the answer failed: \(error)")
        }
        return body
    }
}
