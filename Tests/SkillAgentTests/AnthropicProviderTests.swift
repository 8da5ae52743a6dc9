import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// Whole turns through the Anthropic Messages provider against recorded exchanges, and the check that a
/// turn gives the same events whichever provider runs it.
@Suite(.serialized) struct AnthropicProviderTests {
    static func fixture(_ name: String) -> [UInt8] {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/anthropic")
        guard let url, let data = try? Data(contentsOf: url) else {
            Issue.record("missing fixture Fixtures/anthropic/\(name)")
            return []
        }
        return [UInt8](data)
    }

    static func stream(_ name: String, pieceSize: Int = 17) -> ReplayServer.Response {
        ReplayServer.Response(status: 200, headers: ["Content-Type": "text/event-stream; charset=utf-8"], body: fixture(name), pieceSize: pieceSize)
    }

    static func json(_ name: String, status: Int = 200, headers: [String: String] = [:]) -> ReplayServer.Response {
        ReplayServer.Response(
            status: status, headers: headers.merging(["Content-Type": "application/json"]) { first, _ in first }, body: fixture(name),
            pieceSize: 0)
    }

    /// The replay server serves `/v1/...`; the Anthropic base URL is the root without `/v1`.
    static func provider(_ server: ReplayServer, key: String? = "sk-ant-test-5678", stream: Bool = true, model: String = "claude-haiku-4-5") -> AnthropicProvider {
        AnthropicProvider(
            configuration: AnthropicConfiguration(
                baseURL: "http://127.0.0.1:\(server.port)", model: model, apiKey: key, stream: stream, idleTimeout: 10,
                maxRetries: 2, maxRetryDelay: 5, initialRetryDelay: 0.01))
    }

    @Test func twoStreamedToolUseBlocksThenAStreamedAnswer() async throws {
        let server = try ReplayServer([Self.stream("two_tools.sse"), Self.stream("answer_two_tools.sse", pieceSize: 5)])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let all = await events(of: Agent(provider: Self.provider(server), backend: backend), "What time is it in Tokyo, and how many words are in 'hello big world'?")
        #expect(all.turnFailure == nil)
        #expect(Set(all.successes) == ["toolu_01T1x1fJ34qAmk2tNTrN7Up6", "toolu_01Wc2pLqR8sVbN3mK5jH7gTy"])
        #expect(backend.invocations.map(\.arguments).contains(["timezone": "Asia/Tokyo"]))
        #expect(backend.invocations.map(\.arguments).contains(["text": "hello big world"]))
        #expect(all.answer == "It is 10:00 in Asia/Tokyo, and the text has 3 words.")

        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[0].path == "/v1/messages")
        #expect(requests[0].headers["x-api-key"] == "sk-ant-test-5678")
        #expect(requests[0].headers["anthropic-version"] == "2023-06-01")
        #expect(requests[0].headers["authorization"] == nil)
        let first = try #require(requests[0].body)
        #expect(first["stream"] == true)
        #expect(first["max_tokens"] == 1024)
        #expect(first["system"]?.stringValue?.contains("acts through tools") == true)
        #expect(first["tools"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["clock_now", "text_count_words"])
        #expect(first["tools"]?.arrayValue?.first?["input_schema"]?["type"] == "object")
        #expect(first["tool_choice"] == ["type": "auto"])
        #expect(first["messages"]?.arrayValue?.allSatisfy { $0["role"] != "system" } == true)

        // The calls went back as tool_use blocks with input objects, the results as tool_result blocks of
        // one user message.
        let sent = try #require(requests[1].body?["messages"]?.arrayValue)
        #expect(sent.compactMap { $0["role"]?.stringValue } == ["user", "assistant", "user"])
        // A turn of one text block is the API's short form, a string.
        #expect(sent[0]["content"]?.stringValue?.isEmpty == false)
        let uses = try #require(sent[1]["content"]?.arrayValue)
        #expect(uses.map { $0["type"] } == ["tool_use", "tool_use"])
        #expect(uses[0]["input"] == ["timezone": "Asia/Tokyo"])
        let results = try #require(sent[2]["content"]?.arrayValue)
        #expect(results.map { $0["type"] } == ["tool_result", "tool_result"])
        #expect(results.compactMap { $0["tool_use_id"]?.stringValue } == ["toolu_01T1x1fJ34qAmk2tNTrN7Up6", "toolu_01Wc2pLqR8sVbN3mK5jH7gTy"])
    }

    /// Events of a turn as `--json` prints them, with call ids replaced by their order.
    static func normalized(_ events: [AgentEvent]) -> [String] {
        var ids: [String: String] = [:]
        func id(_ raw: String) -> String {
            if let known = ids[raw] { return known }
            ids[raw] = "call#\(ids.count)"
            return ids[raw]!
        }
        return events.map { event in
            var value = event.jsonValue
            if var object = value.objectValue {
                if let raw = object["call_id"]?.stringValue { object["call_id"] = .string(id(raw)) }
                if object["seconds"] != nil { object["seconds"] = 0 }
                if let calls = object["tool_calls"]?.arrayValue {
                    object["tool_calls"] = .array(calls.map { call in
                        guard var call = call.objectValue else { return call }
                        if let raw = call["id"]?.stringValue { call["id"] = .string(id(raw)) }
                        return .object(call)
                    })
                }
                value = .object(object)
            }
            return value.serialized()
        }
    }

    @Test func theSameTurnGivesTheSameEventsWithEitherProvider() async throws {
        let sentence = "What time is it in Tokyo, and how many words are in 'hello big world'?"
        let openAIServer = try ReplayServer([.stream("two_tools.sse"), .stream("answer_two_tools.sse")])
        defer { openAIServer.stop() }
        let anthropicServer = try ReplayServer([Self.stream("two_tools.sse"), Self.stream("answer_two_tools.sse")])
        defer { anthropicServer.stop() }
        let openAI = Agent(
            provider: OpenAIProviderTests.provider(openAIServer), backend: TestSkills.backend(TestSkills.clockNow, TestSkills.countWords),
            configuration: AgentConfiguration(maxConcurrentCalls: 1))
        let anthropic = Agent(
            provider: Self.provider(anthropicServer), backend: TestSkills.backend(TestSkills.clockNow, TestSkills.countWords),
            configuration: AgentConfiguration(maxConcurrentCalls: 1))
        let fromOpenAI = Self.normalized(await events(of: openAI, sentence))
        let fromAnthropic = Self.normalized(await events(of: anthropic, sentence))
        #expect(fromOpenAI.count > 8)
        #expect(fromOpenAI == fromAnthropic)
    }

    @Test func wholeAnswersWithTextBesideToolUse() async throws {
        let server = try ReplayServer([Self.json("call_clock_now.json"), Self.json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Agent(provider: Self.provider(server, stream: false), backend: backend), "time in Tokyo")
        #expect(all.successes == ["toolu_01A09q90qw90lq917835lq9"])
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(server.requests[0].body?["stream"] == nil)
        let assistant = try #require(server.requests[1].body?["messages"]?.arrayValue?[1]["content"]?.arrayValue)
        #expect(assistant.map { $0["type"] } == ["text", "tool_use"])
        #expect(assistant[0]["text"] == "I'll look up the time in Tokyo.")
    }

    @Test func theStepCapSendsToolChoiceNone() async throws {
        let server = try ReplayServer([Self.json("call_clock_now.json"), Self.json("answer_time.json")])
        defer { server.stop() }
        let agent = Agent(
            provider: Self.provider(server, stream: false), backend: TestSkills.backend(TestSkills.clockNow),
            configuration: AgentConfiguration(maxSteps: 1))
        let all = await events(of: agent, "time in Tokyo")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        let last = try #require(server.requests.last?.body)
        #expect(last["tool_choice"] == ["type": "none"])
        // The cap note follows the tool results in the same user turn: roles still alternate.
        let roles = last["messages"]?.arrayValue?.compactMap { $0["role"]?.stringValue } ?? []
        #expect(roles == ["user", "assistant", "user"])
        #expect(last["messages"]?.arrayValue?.last?["content"]?.arrayValue?.map { $0["type"] } == ["tool_result", "text"])
    }

    @Test func unauthorizedNamesTheVariableNotTheKey() async throws {
        let server = try ReplayServer([Self.json("error_401.json", status: 401)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, key: "sk-ant-secret"), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .unauthorized)
        #expect(failure.message.contains("ANTHROPIC_API_KEY"))
        #expect(failure.message.contains("authentication_error: invalid x-api-key"))
        #expect(!failure.message.contains("sk-ant-secret"))
        #expect(server.requests.count == 1)
    }

    @Test func unknownModelNamesTheModel() async throws {
        let server = try ReplayServer([Self.json("error_404_model.json", status: 404)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, model: "claude-9"), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .notFound)
        #expect(failure.message.contains("model 'claude-9'"))
    }

    @Test func overloadedIsRetriedThenAnswered() async throws {
        let server = try ReplayServer([Self.json("error_529.json", status: 529), Self.json("answer_time.json")])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server, stream: false), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(server.requests.count == 2)
    }

    @Test func anErrorEventInTheStreamEndsTheTurnClearly() async throws {
        let server = try ReplayServer([Self.stream("overloaded_mid_stream.sse", pieceSize: 7)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.providerError?.kind == .server)
        #expect(failure.message.contains("overloaded_error: Overloaded"))
    }

    @Test func aValidationErrorIsExplained() async throws {
        let server = try ReplayServer([Self.json("error_400_validation.json", status: 400)])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        let failure = try #require(all.turnFailure)
        #expect(failure.message.contains("refused the conversation as invalid (HTTP 400"))
        #expect(failure.message.contains("Input should be a valid dictionary"))
        #expect(server.requests.count == 1)
    }

    @Test func anEmptyStreamIsRetriedWhole() async throws {
        let server = try ReplayServer([
            ReplayServer.Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: [], pieceSize: 4),
            Self.json("answer_time.json"),
        ])
        defer { server.stop() }
        let all = await events(of: Agent(provider: Self.provider(server), backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.answer == "It is 10:00 in Tokyo.")
        #expect(all.contains { if case .notice = $0 { true } else { false } })
        #expect(server.requests[1].body?["stream"] == nil)
    }
}
