import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization
import Testing

@testable import SkillAgent

/// Whole turns through the loop with a scripted model and in-memory skills.
@Suite struct AgentLoopTests {
    static func call(_ id: String, _ name: String, _ arguments: String) -> ToolCall {
        ToolCall(id: id, name: name, argumentsText: arguments)
    }

    /// The tool messages of the history, as (call id, parsed content).
    static func toolResults(_ agent: Agent) async -> [(String, JSONValue?)] {
        await agent.history.messages().filter { $0.role == .tool }.map { ($0.toolCallID ?? "", try? JSONValue(parsing: $0.content)) }
    }

    @Test func twoSkillsInOneRequest() async throws {
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [
                Self.call("c1", "clock_now", #"{"timezone":"Asia/Tokyo"}"#),
                Self.call("c2", "text_count_words", #"{"text":"hello big world"}"#),
            ]),
            ModelReply(content: "It is 10:00 in Tokyo; the text has 3 words."),
        ])
        let agent = Agent(provider: provider, backend: backend)
        let all = await events(of: agent, "what time is it in Tokyo and count the words in hello big world")
        #expect(all.states == [.thinking, .needSkill, .executingSkill, .thinking, .generating, .finished])
        #expect(Set(all.successes) == ["c1", "c2"])
        #expect(all.answer == "It is 10:00 in Tokyo; the text has 3 words.")
        let results = await Self.toolResults(agent)
        #expect(results.map(\.0) == ["c1", "c2"])
        #expect(results[1].1?["words"] == 3)
        // The second request carried both results after the calls, and the tools with OpenAI-safe names.
        let second = try #require(provider.requests.last)
        #expect(second.messages.suffix(3).map(\.role) == [.assistant, .tool, .tool])
        #expect(provider.requests[0].tools.map(\.name) == ["clock_now", "text_count_words"])
    }

    @Test func invalidArgumentsAreCorrectedOnTheSecondTry() async throws {
        let backend = TestSkills.backend(TestSkills.clockNow)
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "clock_now", #"{"timezone": 5}"#)]),
            ModelReply(content: "", toolCalls: [Self.call("c2", "clock_now", #"{"timezone": "Asia/Tokyo"}"#)]),
            ModelReply(content: "It is 10:00 in Tokyo."),
        ])
        let agent = Agent(provider: provider, backend: backend)
        let all = await events(of: agent, "time in Tokyo")
        #expect(all.skillFailures.map(\.kind) == ["invalidArguments"])
        #expect(all.skillFailures.first?.message.contains("/timezone") == true)
        #expect(all.successes == ["c2"])
        #expect(all.answer == "It is 10:00 in Tokyo.")
        let results = await Self.toolResults(agent)
        #expect(results[0].1?["error"]?["kind"] == "invalidArguments")
        #expect(results[0].1?["next_step"]?.stringValue?.contains("Correct the arguments") == true)
        #expect(backend.invocations.count == 1)  // the invalid call never reached the skill
    }

    @Test func argumentsAreCheckedOnceByTheHostsValidatorBeforeAnySkillRuns() async throws {
        let backend = TestSkills.backend(TestSkills.addReminder)
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "reminders_add", #"{"title": "gym", "time": "tomorrow", "extra": 1}"#)]),
            ModelReply(content: "That time is not valid."),
        ])
        let all = await events(of: Agent(provider: provider, backend: backend, configuration: AgentConfiguration(approval: AllowAllApproval())), "remind me")
        #expect(backend.invocations.isEmpty)
        let failure = try #require(all.skillFailures.first)
        #expect(failure.kind == "invalidArguments")
        #expect(failure.message.hasPrefix("skill reminders.add: invalid arguments: "))
        #expect(failure.message.contains("/time"))
        #expect(failure.message.contains("extra"))
    }

    @Test func argumentsThatAreNotJSONGoBackToTheModel() async throws {
        let backend = TestSkills.backend(TestSkills.clockNow)
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "clock_now", #"{"timezone": "Asia/Tok"#)]),
            ModelReply(content: "Sorry."),
        ])
        let all = await events(of: Agent(provider: provider, backend: backend), "time")
        #expect(all.skillFailures.first?.kind == "invalidArguments")
        #expect(all.skillFailures.first?.message.contains("not valid JSON") == true)
        let arrayArguments = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "clock_now", "[1]")]), ModelReply(content: "ok"),
        ])
        let second = await events(of: Agent(provider: arrayArguments, backend: backend), "time")
        #expect(second.skillFailures.first?.message.contains("arguments must be a JSON object, got array") == true)
    }

    @Test func unknownToolIsReportedWithTheOfferedNames() async {
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "weather_today", "{}")]), ModelReply(content: "No weather skill."),
        ])
        let all = await events(of: Agent(provider: provider, backend: TestSkills.backend(TestSkills.clockNow)), "weather?")
        #expect(all.skillFailures == [HostErrorSummary(callID: "c1", kind: "notFound", message: #"unknown tool "weather_today"; no enabled skill has that name; use one of: clock_now"#)])
        #expect(all.answer == "No weather skill.")
    }

    @Test func aSkillThatThrowsBecomesAToolResult() async {
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "files_read", #"{"path":"/nope"}"#)]),
            ModelReply(content: "The file does not exist."),
        ])
        let agent = Agent(provider: provider, backend: TestSkills.backend(TestSkills.failing))
        let all = await events(of: agent, "read /nope")
        #expect(all.skillFailures.map(\.kind) == ["skillFailed"])
        #expect(all.skillFailures.first?.message.contains("no such file /nope") == true)
        #expect(all.states.last == .finished)
        #expect(await Self.toolResults(agent).first?.1?["error"]?["kind"] == "skillFailed")
    }

    @Test func aSkillThatTimesOutIsStoppedAndReported() async {
        let backend = TestSkills.backend(TestSkills.sleeper(seconds: 30, timeout: 0.2))
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "slow_wait", "{}")]), ModelReply(content: "It took too long."),
        ])
        let clock = ContinuousClock()
        let start = clock.now
        let agent = Agent(provider: provider, backend: backend)
        let all = await events(of: agent, "wait")
        #expect(start.duration(to: clock.now) < .seconds(5))
        #expect(all.skillFailures.map(\.kind) == ["timeout"])
        let message = all.skillFailures.first?.message ?? ""
        #expect(message.hasPrefix("skill slow.wait timed out after "), "\(message)")
        #expect(message.contains("(limit 0.2 s)") && message.contains("plugins.slow.skills.slow.wait.timeout"), "\(message)")
        #expect(all.answer == "It took too long.")
    }

    /// The timeout covers the skill's execution only: a person who takes longer than the timeout to answer
    /// the approval prompt still gets the skill run, and a skill that then overruns still times out.
    @Test func theTimerStartsAfterApproval() async {
        var slowWrite = TestSkills.sleeper(id: "slow.write", seconds: 0.05, timeout: 1)
        slowWrite.tool.permission = .write
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "slow_write", "{}")]), ModelReply(content: "Done."),
        ])
        let slowPerson = ClosureApproval { _ in
            try? await Task.sleep(for: .milliseconds(2500))
            return true
        }
        let agent = Agent(provider: provider, backend: TestSkills.backend(slowWrite),
                          configuration: AgentConfiguration(approval: slowPerson))
        let all = await events(of: agent, "write slowly")
        #expect(all.skillFailures.isEmpty, "\(all.skillFailures)")
        #expect(all.successes == ["c1"])

        var overrun = TestSkills.sleeper(id: "slow.write", seconds: 30, timeout: 1)
        overrun.tool.permission = .write
        let second = Agent(
            provider: ScriptedProvider([ModelReply(content: "", toolCalls: [Self.call("c2", "slow_write", "{}")]), ModelReply(content: "Too slow.")]),
            backend: TestSkills.backend(overrun), configuration: AgentConfiguration(approval: slowPerson))
        #expect(await events(of: second, "write slowly").skillFailures.map(\.kind) == ["timeout"])
    }

    @Test func approvalDeniedGoesBackToTheModel() async {
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "reminders_add", #"{"title":"gym","time":"10:00:00Z"}"#)]),
            ModelReply(content: "I did not add it, since you declined."),
        ])
        let backend = TestSkills.backend(TestSkills.addReminder)
        let asked = Mutex<[ApprovalRequest]>([])
        let approval = ClosureApproval { request in
            asked.withLock { $0.append(request) }
            return false
        }
        let agent = Agent(provider: provider, backend: backend, configuration: AgentConfiguration(approval: approval))
        let all = await events(of: agent, "remind me to go to the gym at 10")
        #expect(asked.withLock { $0.map { $0.skill.id } } == ["reminders.add"])
        #expect(all.skillFailures.map(\.kind) == ["denied"])
        #expect(backend.invocations.isEmpty)
        #expect(await Self.toolResults(agent).first?.1?["next_step"]?.stringValue?.contains("Do not retry") == true)
    }

    @Test func approvedWriteSkillRuns() async {
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("c1", "reminders_add", #"{"title":"gym","time":"10:00:00Z"}"#)]),
            ModelReply(content: "Added."),
        ])
        let backend = TestSkills.backend(TestSkills.addReminder)
        let agent = Agent(provider: provider, backend: backend, configuration: AgentConfiguration(approval: AllowAllApproval()))
        let all = await events(of: agent, "remind me")
        #expect(all.successes == ["c1"])
        #expect(backend.invocations.map(\.skillID) == ["reminders.add"])
    }

    @Test func theStepCapSwitchesToolsOffAndAsksForAnAnswer() async throws {
        let looping = (0..<10).map { ModelReply(content: "", toolCalls: [Self.call("c\($0)", "clock_now", #"{"timezone":"UTC"}"#)]) }
        let provider = ScriptedProvider(looping, finalAnswer: "Here is what I found so far.")
        let backend = TestSkills.backend(TestSkills.clockNow)
        let agent = Agent(provider: provider, backend: backend, configuration: AgentConfiguration(maxSteps: 2))
        let all = await events(of: agent, "loop forever")
        #expect(provider.requests.count == 3)
        #expect(provider.requests.map(\.toolChoice) == [.auto, .auto, .none])
        #expect(provider.requests[2].messages.last?.content == AgentConfiguration.stepCapPrompt)
        #expect(backend.invocations.count == 2)
        #expect(all.answer == "Here is what I found so far.")
        #expect(all.states.last == .finished)
    }

    @Test func aModelThatIgnoresTheCapStillGetsEveryCallAnswered() async throws {
        /// A model that always calls a tool, even with tool_choice none.
        final class Stubborn: ModelProvider {
            var name: String { "stubborn" }
            func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
                AsyncThrowingStream { continuation in
                    let id = "s\(request.messages.count)"
                    continuation.yield(.reply(ModelReply(content: "", toolCalls: [ToolCall(id: id, name: "clock_now", argumentsText: #"{"timezone":"UTC"}"#)])))
                    continuation.finish()
                }
            }
        }
        let agent = Agent(provider: Stubborn(), backend: TestSkills.backend(TestSkills.clockNow), configuration: AgentConfiguration(maxSteps: 1))
        let all = await events(of: agent, "go")
        #expect(all.states.last == .finished)
        #expect(all.answer?.contains("stopped after 1 tool steps") == true)
        #expect(all.skillFailures.map(\.kind) == ["denied"])
        #expect(all.skillFailures.first?.message == "not run: the limit of 1 tool steps per request is reached")
        let history = await agent.history.messages()
        let callIDs = history.flatMap(\.toolCalls).map(\.id)
        #expect(history.filter { $0.role == .tool }.compactMap(\.toolCallID) == callIDs)
    }

    @Test func parallelCallsRunBoundedAndReturnInCallOrder() async throws {
        // Four calls; the first sleeps longest, so completion order is the reverse of call order.
        let skills = (0..<4).map { index in
            InMemorySkillBackend.Skill(
                tool: SkillTool(id: "work.w\(index)", description: "w", parameters: ["type": "object"], timeout: 10),
                body: { _ in
                    try await Task.sleep(for: .milliseconds(Int64(300 - index * 60)))
                    return ["index": .int(Int64(index))]
                })
        }
        let backend = InMemorySkillBackend(skills)
        let calls = (0..<4).map { Self.call("p\($0)", "work_w\($0)", "{}") }
        let provider = ScriptedProvider([ModelReply(content: "", toolCalls: calls), ModelReply(content: "all done")])
        let agent = Agent(provider: provider, backend: backend, configuration: AgentConfiguration(maxConcurrentCalls: 2))
        let all = await events(of: agent, "do four things")
        #expect(backend.peakConcurrency == 2)
        let results = await Self.toolResults(agent)
        #expect(results.map(\.0) == ["p0", "p1", "p2", "p3"])
        #expect(results.map { $0.1?["index"] } == [0, 1, 2, 3])
        #expect(all.answer == "all done")
    }

    @Test func cancellingTheTurnCancelsRunningSkills() async throws {
        let started = Mutex(false)
        let finished = Mutex(false)
        let skill = InMemorySkillBackend.Skill(
            tool: SkillTool(id: "slow.job", description: "slow", parameters: ["type": "object"], timeout: 60),
            body: { _ in
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(30))
                finished.withLock { $0 = true }
                return "late"
            })
        let provider = ScriptedProvider([ModelReply(content: "", toolCalls: [Self.call("c1", "slow_job", "{}")])])
        let agent = Agent(provider: provider, backend: InMemorySkillBackend([skill]))
        let seen = Mutex<[AgentEvent]>([])
        let turn = Task { await agent.runTurn("start the slow job") { event in seen.withLock { $0.append(event) } } }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        turn.cancel()
        await turn.value
        let all = seen.withLock { $0 }
        #expect(all.states.last == .failed)
        #expect(all.turnFailure?.kind == .cancelled)
        #expect(all.skillFailures.map(\.kind) == ["cancelled"])
        #expect(!finished.withLock { $0 })
        // The history still answers the call.
        #expect(await Self.toolResults(agent).first?.1?["error"]?["kind"] == "cancelled")
    }

    @Test func droppingTheEventStreamCancelsTheTurn() async throws {
        let started = Mutex(false)
        let skill = InMemorySkillBackend.Skill(
            tool: SkillTool(id: "slow.job", description: "slow", parameters: ["type": "object"], timeout: 60),
            body: { _ in
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(30))
                return "late"
            })
        let provider = ScriptedProvider([ModelReply(content: "", toolCalls: [Self.call("c1", "slow_job", "{}")])])
        let agent = Agent(provider: provider, backend: InMemorySkillBackend([skill]))
        let consumer = Task { await events(of: agent, "start the slow job") }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        consumer.cancel()
        _ = await consumer.value
        // The turn notices, answers the call with a cancellation and stops well before the skill's 30 s.
        let clock = ContinuousClock()
        let start = clock.now
        while await Self.toolResults(agent).isEmpty, start.duration(to: clock.now) < .seconds(5) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await Self.toolResults(agent).first?.1?["error"]?["kind"] == "cancelled")
    }

    @Test func aModelFailureEndsTheTurnWithItsMessage() async {
        let provider = ScriptedProvider([])
        let all = await events(of: Agent(provider: provider, backend: TestSkills.backend(TestSkills.clockNow)), "hi")
        #expect(all.states == [.thinking, .failed])
        #expect(all.turnFailure?.message == "scripted: script exhausted")
    }

    @Test func idsMissingOrRepeatedAreMadeUnique() async {
        let provider = ScriptedProvider([
            ModelReply(content: "", toolCalls: [Self.call("", "clock_now", #"{"timezone":"UTC"}"#), Self.call("", "clock_now", #"{"timezone":"UTC"}"#)]),
            ModelReply(content: "", toolCalls: [Self.call("call_0_0", "clock_now", #"{"timezone":"UTC"}"#)]),
            ModelReply(content: "done"),
        ])
        let agent = Agent(provider: provider, backend: TestSkills.backend(TestSkills.clockNow))
        _ = await events(of: agent, "twice")
        let ids = await agent.history.messages().filter { $0.role == .tool }.compactMap(\.toolCallID)
        #expect(ids.count == 3)
        #expect(Set(ids).count == 3)
    }

    @Test func anEmptyAnswerSaysSo() async {
        let provider = ScriptedProvider([ModelReply(content: "", finishReason: "content_filter")])
        let all = await events(of: Agent(provider: provider, backend: TestSkills.backend(TestSkills.clockNow)), "hm")
        #expect(all.answer == "The model gave no answer (finish reason: content_filter); try rephrasing the request.")
    }

    @Test func stateDiagramRefusesMissingEdges() {
        var machine = AgentStateMachine()
        var moves: [Bool] = []
        for state in [AgentState.executingSkill, .thinking, .needSkill, .finished, .executingSkill, .thinking, .generating, .finished] {
            moves.append(machine.move(to: state))
        }
        #expect(moves == [false, true, true, false, true, true, true, true])
        #expect(machine.state == .finished)
    }
}
