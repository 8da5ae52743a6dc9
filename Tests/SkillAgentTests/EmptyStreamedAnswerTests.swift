import SkillJSON
import Testing

@testable import SkillAgent

/// A well-formed stream that carries nothing — no text, no tool call — to a request that offered tools
/// (issue 38: LiteLLM's Messages endpoint turns a backend that cannot stream with tools into one empty text
/// block and `end_turn`): either provider asks again whole, once, keeps streaming off for the session and
/// says so once. `Fixtures/anthropic/litellm_*` are LiteLLM 1.108.7's answers, recorded in front of a
/// backend that answered with an empty body and with llama.cpp's "Cannot use tools with stream".
@Suite(.serialized) struct EmptyStreamedAnswerTests {
    static func notices(_ events: [AgentEvent]) -> [String] {
        events.compactMap { if case .notice(let line) = $0 { line } else { nil } }
    }

    /// The `stream` flag of each request the server saw.
    static func streamed(_ server: ReplayServer) -> [Bool] {
        server.requests.map { $0.body?["stream"] == true }
    }

    /// LiteLLM's empty stream with another stop reason.
    static func emptyAnthropicStream(stopReason: String) -> ReplayServer.Response {
        let text = String(decoding: AnthropicProviderTests.fixture("litellm_empty_stream.sse"), as: UTF8.self)
        #expect(text.contains(#""stop_reason": "end_turn""#))
        return ReplayServer.Response(
            status: 200, headers: ["Content-Type": "text/event-stream; charset=utf-8"],
            body: Array(text.replacingOccurrences(of: "end_turn", with: stopReason).utf8), pieceSize: 11)
    }

    /// A Chat Completions stream that ends normally with nothing in it: the role, `stop`, `[DONE]`.
    static let emptyChatStream = ReplayServer.Response(
        status: 200, headers: ["Content-Type": "text/event-stream"],
        body: Array(
            ("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
                + "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: [DONE]\n\n").utf8), pieceSize: 13)

    @Test func anthropicLiteLLMsEmptyStreamIsAskedAgainWholeAndRemembered() async throws {
        let server = try ReplayServer([
            AnthropicProviderTests.stream("litellm_empty_stream.sse"), AnthropicProviderTests.json("call_clock_now.json"),
            AnthropicProviderTests.json("answer_time.json"), AnthropicProviderTests.json("answer_time.json"),
        ])
        defer { server.stop() }
        let agent = Agent(provider: AnthropicProviderTests.provider(server), backend: TestSkills.backend(TestSkills.clockNow))
        let first = await events(of: agent, "what time is it in Tokyo")
        #expect(first.turnFailure == nil)
        #expect(first.successes.count == 1)
        #expect(first.answer == "It is 10:00 in Tokyo.")
        #expect(
            Self.notices(first) == [
                "http://127.0.0.1:\(server.port) sent an empty streamed answer (no text, no tool call) to a request with tools; streaming is off for this session"
            ])
        let second = await events(of: agent, "and now?")
        #expect(Self.notices(second).isEmpty)
        #expect(second.answer == "It is 10:00 in Tokyo.")
        #expect(Self.streamed(server) == [true, false, false, false])
    }

    @Test func openAIEmptyStreamThatStopsIsAskedAgainWhole() async throws {
        let server = try ReplayServer([Self.emptyChatStream, .json("llamacpp_call_clock_now.json"), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: ServerQuirkTests.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "time on Mars")
        #expect(all.turnFailure == nil)
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(Self.notices(all).count == 1)
        #expect(Self.notices(all).first?.contains("sent an empty streamed answer (no text, no tool call) to a request with tools") == true)
        #expect(Self.streamed(server) == [true, false, false])
    }

    @Test func anthropic400ThatBlamesStreamingIsAskedAgainWhole() async throws {
        let server = try ReplayServer([
            AnthropicProviderTests.json("litellm_400_stream_tools.json", status: 400), AnthropicProviderTests.json("answer_time.json"),
            AnthropicProviderTests.json("answer_time.json"),
        ])
        defer { server.stop() }
        let agent = Agent(provider: AnthropicProviderTests.provider(server), backend: TestSkills.backend(TestSkills.clockNow))
        let first = await events(of: agent, "hi")
        #expect(first.turnFailure == nil)
        #expect(first.answer == "It is 10:00 in Tokyo.")
        #expect(Self.notices(first) == ["http://127.0.0.1:\(server.port) cannot stream with tools; streaming is off for this session"])
        #expect(Self.notices(await events(of: agent, "again")).isEmpty)
        #expect(Self.streamed(server) == [true, false, false])
    }

    @Test func withoutToolsAnEmptyStreamIsTheAnswer() async throws {
        let server = try ReplayServer([AnthropicProviderTests.stream("litellm_empty_stream.sse")])
        defer { server.stop() }
        var replies: [ModelReply] = []
        var notices: [String] = []
        for try await event in AnthropicProviderTests.provider(server).respond(to: ModelRequest(messages: [.user("say nothing")], tools: [])) {
            switch event {
            case .reply(let reply): replies.append(reply)
            case .notice(let line): notices.append(line)
            case .token: break
            }
        }
        #expect(replies == [ModelReply(content: "", finishReason: "stop")])
        #expect(notices.isEmpty)
        #expect(Self.streamed(server) == [true])
    }

    @Test func anEmptyAnswerCutByTheTokenLimitIsNotAskedAgain() async throws {
        let server = try ReplayServer([Self.emptyAnthropicStream(stopReason: "max_tokens")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: AnthropicProviderTests.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer?.hasPrefix("The model gave no answer (finish reason: length)") == true)
        #expect(Self.notices(all).isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func anEmptyWholeAnswerAfterTheRetryIsTheAnswer() async throws {
        let emptyWhole = ReplayServer.Response(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Array(#"{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":""}],"stop_reason":"end_turn"}"#.utf8),
            pieceSize: 0)
        let server = try ReplayServer([AnthropicProviderTests.stream("litellm_empty_stream.sse"), emptyWhole])
        defer { server.stop() }
        let all = await events(of: Agent(provider: AnthropicProviderTests.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer?.hasPrefix("The model gave no answer (finish reason: stop)") == true)
        #expect(Self.notices(all).count == 1)
        #expect(Self.streamed(server) == [true, false])
    }
}
