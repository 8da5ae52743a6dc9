import SkillJSON
import Testing

@testable import SkillAgent

/// The quirks of real local servers (issue 13), each against a recorded exchange.
@Suite(.serialized) struct ServerQuirkTests {
    static func provider(_ server: ReplayServer, stream: Bool = true) -> OpenAIProvider {
        OpenAIProviderTests.provider(server, model: "smollm2", key: nil, stream: stream)
    }

    static func notices(_ events: [AgentEvent]) -> [String] {
        events.compactMap { if case .notice(let line) = $0 { line } else { nil } }
    }

    @Test func anEmptyStreamIsRetriedWholeOnceAndRememberedForTheSession() async throws {
        let server = try ReplayServer([
            .stream("llamacpp_empty_stream.sse"), .json("llamacpp_call_clock_now.json"), .json("answer_time.json"),
            .json("answer_time.json"),
        ])
        defer { server.stop() }
        let agent = Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow))
        let first = await events(of: agent, "what time is it on Mars")
        #expect(first.turnFailure == nil)
        #expect(first.answer == "It is 10:00 in Tokyo.")
        let notices = Self.notices(first)
        #expect(notices.count == 1)
        #expect(notices.first?.contains("without a single delta") == true)
        #expect(notices.first?.contains("streaming is off for this session") == true)
        let second = await events(of: agent, "and now?")
        #expect(Self.notices(second).isEmpty)
        #expect(second.answer == "It is 10:00 in Tokyo.")
        let requests = server.requests
        #expect(requests.count == 4)
        #expect(requests.map { $0.body?["stream"] == true } == [true, false, false, false])
    }

    @Test func aStreamCutOffBeforeItsEndIsRetriedWhole() async throws {
        let server = try ReplayServer([.stream("stream_role_only_no_done.sse", pieceSize: 4), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "time")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(Self.notices(all).count == 1)
        #expect(server.requests.count == 2)
        #expect(server.requests[1].body?["stream"] == nil)
    }

    @Test func aSecondEmptyAnswerIsNotRetriedForever() async throws {
        let server = try ReplayServer([.stream("llamacpp_empty_stream.sse"), .stream("llamacpp_empty_stream.sse")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "time")
        #expect(server.requests.count == 2)
        #expect(all.turnFailure?.providerError?.kind == .invalidResponse)
    }

    @Test func assistantToolCallMessagesCarryAnEmptyStringContent() async throws {
        let server = try ReplayServer([.json("llamacpp_call_clock_now.json"), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, stream: false), backend: TestSkills.backend(TestSkills.clockNow)), "time on Mars")
        #expect(all.turnFailure == nil)
        let sent = try #require(server.requests[1].body?["messages"]?.arrayValue)
        let assistant = try #require(sent.first { $0["tool_calls"] != nil })
        #expect(assistant["content"] == "")
    }

    @Test func aValidationErrorEndsTheTurnWithAPlainExplanationAndNoRetries() async throws {
        let server = try ReplayServer([.json("llamacpp_call_clock_now.json"), .json("llamacpp_validation_500.json", status: 500)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, stream: false), backend: TestSkills.backend(TestSkills.clockNow)), "time on Mars")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .badRequest)
        #expect(failure.message.contains("refused the conversation as invalid (HTTP 500"))
        #expect(failure.message.contains("Input should be a valid string"))
        #expect(failure.message.contains("start a new chat"))
        #expect(!failure.message.contains("\n"))
        #expect(server.requests.count == 2)
        #expect(all.successes.count == 1)
    }

    @Test func anOrdinaryServerErrorIsNotTakenForAValidationError() {
        #expect(ServerValidationError.explain(status: 500, detail: "The server had an error", host: "h") == nil)
        #expect(ServerValidationError.explain(status: 401, detail: "1 validation error", host: "h") == nil)
        #expect(ServerValidationError.explain(status: 422, detail: "", host: "h")?.kind == .badRequest)
    }

    // MARK: Ollama and vLLM

    @Test func ollamaReusingIndexZeroForTwoCallsGivesTwoCalls() async throws {
        let server = try ReplayServer([.stream("ollama_reused_index.sse", pieceSize: 11), .stream("answer_two_tools.sse")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let all = await events(of: Agent(provider: Self.provider(server), backend: backend), "time in Tokyo and count 'hello big world'")
        #expect(Set(all.successes) == ["call_q1w2e3r4", "call_t5y6u7i8"])
        #expect(backend.invocations.count == 2)
        #expect(backend.invocations.map(\.arguments).contains(["timezone": "Asia/Tokyo"]))
        #expect(backend.invocations.map(\.arguments).contains(["text": "hello big world"]))
    }

    @Test func ollamaCallsWithoutIndexWithObjectArgumentsAndFinishReasonStop() async throws {
        let server = try ReplayServer([.stream("ollama_no_index_object_arguments.sse", pieceSize: 7), .stream("answer_two_tools.sse")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let all = await events(of: Agent(provider: Self.provider(server), backend: backend), "time in Paris and count 'one two'")
        #expect(Set(all.successes) == ["call_k3l4m5n6", "call_o7p8q9r0"])
        #expect(backend.invocations.count == 2)
        #expect(backend.invocations.map(\.arguments).contains(["timezone": "Europe/Paris"]))
        #expect(backend.invocations.map(\.arguments).contains(["text": "one two"]))
        #expect(Self.notices(all).isEmpty)
    }

    @Test func vllmRepeatingTheIdInEveryChunkIsOneCall() async throws {
        let server = try ReplayServer([.stream("vllm_repeated_ids.sse", pieceSize: 9), .json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Agent(provider: Self.provider(server), backend: backend), "time in UTC")
        #expect(all.successes == ["chatcmpl-tool-5e6f"])
        #expect(backend.invocations.map(\.arguments) == [["timezone": "UTC"]])
        let sent = try #require(server.requests[1].body?["messages"]?.arrayValue)
        #expect(sent.first { $0["tool_calls"] != nil }?["tool_calls"]?.arrayValue?.first?["function"]?["name"] == "clock_now")
    }

    @Test func vllmCallsWithoutIdsOrFinishReasonGetUniqueIds() async throws {
        let server = try ReplayServer([.stream("vllm_no_ids_no_finish_reason.sse", pieceSize: 13), .json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Agent(provider: Self.provider(server), backend: backend), "time in Tokyo and UTC")
        #expect(Set(all.successes) == ["call_0_0", "call_0_1"])
        #expect(backend.invocations.count == 2)
        #expect(backend.invocations.map(\.arguments).contains(["timezone": "Asia/Tokyo"]))
        #expect(backend.invocations.map(\.arguments).contains(["timezone": "UTC"]))
        let sent = try #require(server.requests[1].body?["messages"]?.arrayValue)
        #expect(sent.suffix(2).compactMap { $0["tool_call_id"]?.stringValue } == ["call_0_0", "call_0_1"])
    }

    @Test func finishReasonStopBesideToolCallsStillRunsThem() async throws {
        let server = try ReplayServer([.json("finish_stop_with_tool_calls.json"), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, stream: false), backend: TestSkills.backend(TestSkills.clockNow)), "time")
        #expect(all.successes == ["call_Stp1"])
        #expect(all.answer == "It is 10:00 in Tokyo.")
    }
}
