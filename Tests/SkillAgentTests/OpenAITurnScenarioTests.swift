import SkillCalls
import SkillJSON
import Testing

@testable import SkillAgent

/// The failure scenarios of a turn, through the OpenAI-compatible provider and the local replay server.
@Suite(.serialized) struct OpenAITurnScenarioTests {
    static func agent(_ server: ReplayServer, _ backend: InMemorySkillBackend, _ configuration: AgentConfiguration = AgentConfiguration()) -> Agent {
        Agent(provider: OpenAIProviderTests.provider(server, stream: false), backend: backend, configuration: configuration)
    }

    /// The tool message the second request sent, parsed.
    static func sentToolResult(_ server: ReplayServer) throws -> JSONValue {
        let last = try #require(server.requests[1].body?["messages"]?.arrayValue?.last)
        #expect(last["role"] == "tool")
        return try JSONValue(parsing: last["content"]?.stringValue ?? "")
    }

    @Test func aSkillThatThrows() async throws {
        let server = try ReplayServer([.json("call_files_read.json"), .json("answer_reported_problem.json")])
        defer { server.stop() }
        let all = await events(of: Self.agent(server, TestSkills.backend(TestSkills.failing)), "read /etc/missing.txt")
        #expect(all.skillFailures.map(\.kind) == ["skillFailed"])
        #expect(try Self.sentToolResult(server)["error"]?["message"]?.stringValue?.contains("no such file /etc/missing.txt") == true)
        #expect(all.answer == "I could not do that; the tool reported a problem.")
    }

    @Test func aSkillThatTimesOut() async throws {
        let server = try ReplayServer([.json("call_slow_wait.json"), .json("answer_reported_problem.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.sleeper(seconds: 30, timeout: 0.2))
        let all = await events(of: Self.agent(server, backend, AgentConfiguration()), "wait for the report")
        #expect(all.skillFailures.map(\.kind) == ["timeout"])
        #expect(try Self.sentToolResult(server)["error"]?["kind"] == "timeout")
        #expect(all.states.last == .finished)
    }

    @Test func approvalDenied() async throws {
        let server = try ReplayServer([.json("call_reminders_add.json"), .json("answer_reported_problem.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.addReminder)
        let all = await events(of: Self.agent(server, backend), "remind me to work out at 10")
        #expect(all.skillFailures.map(\.kind) == ["denied"])
        #expect(backend.invocations.isEmpty)
        #expect(try Self.sentToolResult(server)["error"]?["kind"] == "denied")
    }

    @Test func theStepCapSendsToolChoiceNone() async throws {
        let server = try ReplayServer([.json("corrected_arguments.json"), .json("corrected_arguments.json"), .json("answer_time.json")])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Self.agent(server, backend, AgentConfiguration(maxSteps: 2)), "time, again and again")
        #expect(backend.invocations.count == 2)
        #expect(server.requests.compactMap { $0.body?["tool_choice"]?.stringValue } == ["auto", "auto", "none"])
        #expect(server.requests[2].body?["messages"]?.arrayValue?.last?["content"]?.stringValue == AgentConfiguration.stepCapPrompt)
        #expect(all.answer == "It is 10:00 in Tokyo.")
    }

    @Test func historyTrimmingKeepsCallsWithResultsOnTheWire() async throws {
        let server = try ReplayServer([
            .stream("two_tools.sse"), .stream("answer_two_tools.sse"),
            .json("corrected_arguments.json"), .json("answer_time.json"),
            .json("corrected_arguments.json"), .json("answer_time.json"),
        ])
        defer { server.stop() }
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let agent = Agent(
            provider: OpenAIProviderTests.provider(server), backend: backend,
            configuration: AgentConfiguration(systemPrompt: "Be brief.", historyTokenBudget: 200))
        for sentence in ["first: time and words", "second: time in Tokyo", "third: time in Tokyo again"] {
            #expect(await events(of: agent, sentence).answer != nil)
        }
        #expect(server.requests.count == 6)
        for request in server.requests {
            let messages = try #require(request.body?["messages"]?.arrayValue)
            var open = Set<String>()
            for message in messages {
                if message["role"] == "tool" {
                    #expect(open.remove(message["tool_call_id"]?.stringValue ?? "") != nil, "a tool result without its call")
                } else {
                    #expect(open.isEmpty, "a call without its result")
                    open = Set(message["tool_calls"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
                }
            }
            #expect(open.isEmpty)
            #expect(messages.filter { $0["role"] == "system" }.count == 1)
        }
        // The last request dropped the first turn and says so in its (single) system message.
        let last = try #require(server.requests.last?.body?["messages"]?.arrayValue)
        #expect(last[0]["content"]?.stringValue?.contains("Earlier conversation trimmed") == true)
        #expect(!last.contains { $0["content"] == "first: time and words" })
        #expect(last.contains { $0["content"] == "third: time in Tokyo again" })
        // The stored history lost nothing.
        #expect(await agent.history.messages().filter { $0.role == .user }.count == 3)
    }
}
