import SkillJSON
import Testing

@testable import SkillAgent

/// Whole turns through the OpenAI-compatible provider against a local server replaying recorded responses.
@Suite(.serialized) struct OpenAIProviderTests {
    static func provider(_ server: ReplayServer, model: String = "gpt-4o-mini", key: String? = "sk-test-1234", stream: Bool = true) -> OpenAIProvider {
        OpenAIProvider(
            configuration: OpenAIConfiguration(
                baseURL: server.baseURL, model: model, apiKey: key, stream: stream, idleTimeout: 10, maxRetries: 2,
                maxRetryDelay: 5, initialRetryDelay: 0.01))
    }

    @Test func twoParallelStreamedToolCallsThenAStreamedAnswer() async throws {
        let server = try ReplayServer([.stream("two_tools.sse"), .stream("answer_two_tools.sse")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let agent = Agent(provider: Self.provider(server), backend: backend)
        let all = await events(of: agent, "What time is it in Tokyo, and how many words are in 'hello big world'?")
        #expect(all.turnFailure == nil)
        #expect(Set(all.successes) == ["call_Tz1oK", "call_Wc2pL"])
        #expect(backend.invocations.map(\.arguments).contains(["timezone": "Asia/Tokyo"]))
        #expect(backend.invocations.map(\.arguments).contains(["text": "hello big world"]))
        let tokens = all.compactMap { if case .token(let text) = $0 { text } else { nil } }
        #expect(tokens == ["It is 10:00", " in Asia/Tokyo", ", and the text", " has 3 words."])
        #expect(all.answer == "It is 10:00 in Asia/Tokyo, and the text has 3 words.")

        // What went over the wire: auth header, tools, stream flag, then the results in call order.
        let requests = server.requests
        // Required: the lines below index both requests (an expectation would let them crash the test process).
        try #require(requests.count == 2)
        #expect(requests[0].path == "/v1/chat/completions")
        #expect(requests[0].headers["authorization"] == "Bearer sk-test-1234")
        #expect(requests[0].body?["stream"] == true)
        #expect(requests[0].body?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } == ["clock_now", "text_count_words"])
        let sent = try #require(requests[1].body?["messages"]?.arrayValue)
        #expect(sent.suffix(3).compactMap { $0["role"]?.stringValue } == ["assistant", "tool", "tool"])
        #expect(sent.suffix(2).compactMap { $0["tool_call_id"]?.stringValue } == ["call_Tz1oK", "call_Wc2pL"])
        #expect(sent[sent.count - 3]["tool_calls"]?.arrayValue?.first?["function"]?["arguments"] == #"{"timezone": "Asia/Tokyo"}"#)
    }

    @Test func invalidArgumentsCorrectedOnTheSecondTryWithoutStreaming() async throws {
        let server = try ReplayServer([.json("invalid_arguments.json"), .json("corrected_arguments.json"), .json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let agent = Agent(provider: Self.provider(server, stream: false), backend: backend)
        let all = await events(of: agent, "time in Tokyo")
        #expect(all.skillFailures.map(\.kind) == ["invalidArguments"])
        #expect(all.successes == ["call_Fix2"])
        #expect(all.answer == "It is 10:00 in Tokyo.")
        let second = try #require(server.requests[1].body?["messages"]?.arrayValue?.last)
        #expect(second["role"] == "tool")
        let content = try JSONValue(parsing: second["content"]?.stringValue ?? "")
        #expect(content["error"]?["kind"] == "invalidArguments")
        #expect(server.requests[0].body?["stream"] == nil)
    }

    @Test func truncatedArgumentJSONIsAnInvalidArgumentsResult() async throws {
        let server = try ReplayServer([.stream("broken_json_arguments.sse", pieceSize: 5), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "time")
        #expect(all.skillFailures.map(\.kind) == ["invalidArguments"])
        #expect(all.skillFailures.first?.message.contains("not valid JSON") == true)
        #expect(all.answer == "It is 10:00 in Tokyo.")
    }

    @Test func argumentsSentAsAnObjectAreAccepted() async throws {
        let server = try ReplayServer([.json("object_arguments.json"), .json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Agent(provider: Self.provider(server, model: "llama3.1:8b", key: nil), backend: backend), "time in Paris")
        #expect(all.successes == ["call_Obj1"])
        #expect(backend.invocations.first?.arguments == ["timezone": "Europe/Paris"])
        #expect(server.requests[0].headers["authorization"] == nil)
    }

    @Test func llamaCppStreamWithoutIDsAndWithCRLF() async throws {
        let server = try ReplayServer([.stream("llamacpp_no_ids.sse", pieceSize: 3), .json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Agent(provider: Self.provider(server, key: nil), backend: backend), "time in UTC")
        #expect(all.successes == ["call_0_0"])
        #expect(backend.invocations.first?.arguments == ["timezone": "UTC"])
        let sent = try #require(server.requests[1].body?["messages"]?.arrayValue)
        #expect(sent.last?["tool_call_id"] == "call_0_0")
    }

    @Test("an answer over 16 MiB, whole or one endless streamed event, fails in one line instead of filling memory")
    func answerOverTheLimit() async throws {
        let limit = ModelAPIClient<OpenAIWireFormat>.maximumAnswerBytes
        let endless = ReplayServer.Response(
            status: 200, headers: ["Content-Type": "text/event-stream"],
            body: Array("data: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: limit), pieceSize: 1 << 20)
        let whole = ReplayServer.Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Array(repeating: UInt8(ascii: " "), count: limit + 1),
            pieceSize: 0)
        for (response, stream) in [(endless, true), (whole, false)] {
            let server = try ReplayServer([response])
            defer { server.stop() }
            let all = await events(
                of: Agent(provider: Self.provider(server, stream: stream), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
            let failure = try #require(all.turnFailure)
            #expect(failure.providerError?.kind == .invalidResponse)
            #expect(failure.message.contains("sent an answer over 16 MiB; check that the URL is a model server's"), "\(failure.message)")
            #expect(server.requests.count == 1)
        }
    }

    @Test func unauthorizedIsReportedWithoutTheKey() async throws {
        let server = try ReplayServer([.json("error_401.json", status: 401)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, key: "sk-secret-value"), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .unauthorized)
        #expect(failure.message.contains("HTTP 401"))
        #expect(failure.message.contains("OPENAI_API_KEY"))
        #expect(!failure.message.contains("sk-secret-value"))
        #expect(server.requests.count == 1)
        #expect(all.states == [.thinking, .failed])
    }

    @Test func unknownModelNamesTheModel() async throws {
        let server = try ReplayServer([.json("error_404_model.json", status: 404)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, model: "gpt-9-turbo"), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .notFound)
        #expect(failure.message.contains("model 'gpt-9-turbo'"))
        #expect(failure.message.contains("does not exist"))
    }

    @Test func rateLimitedThenSuccessHonoursRetryAfter() async throws {
        let server = try ReplayServer([.json("error_429.json", status: 429, headers: ["retry-after": "0"]), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(server.requests.count == 2)
    }

    @Test func rateLimitWithATooLongRetryAfterFailsClearly() async throws {
        let server = try ReplayServer([.json("error_429.json", status: 429, headers: ["retry-after": "3600"])])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .rateLimited)
        #expect(failure.message.contains("try again after 3600 s"))
        #expect(server.requests.count == 1)
    }

    @Test func serverErrorThenSuccess() async throws {
        let server = try ReplayServer([.json("error_500.json", status: 500), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(server.requests.count == 2)
    }

    @Test func serverErrorsAreRetriedABoundedNumberOfTimes() async throws {
        let server = try ReplayServer(Array(repeating: .json("error_500.json", status: 500), count: 5))
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .server)
        #expect(failure.message.contains("HTTP 500 after 3 attempts"))
        #expect(server.requests.count == 3)
    }

    @Test func serverThatCannotStreamWithToolsGetsAWholeRequest() async throws {
        let server = try ReplayServer([.json("error_400_stream_tools.json", status: 400), .json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(server.requests[0].body?["stream"] == true)
        #expect(server.requests[1].body?["stream"] == nil)
    }

    @Test func unreachableServerSaysSo() async throws {
        // A port that was just free: nothing listens there.
        let server = try ReplayServer([])
        let url = server.baseURL
        server.stop()
        try await Task.sleep(for: .milliseconds(300))
        let provider = OpenAIProvider(configuration: OpenAIConfiguration(baseURL: url, model: "m", idleTimeout: 5, maxRetries: 0))
        let all = await events(of: Agent(provider: provider, backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .transport)
        #expect(failure.message.contains("is the server running"))
    }
}
