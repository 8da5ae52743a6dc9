import SkillCalls
import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

@Suite struct OfflinePlannerTests {
    /// 2026-02-10 08:00 UTC (a Tuesday), in UTC.
    static let filler = SlotFiller(now: Date(timeIntervalSince1970: 1_770_710_400), timeZone: TimeZone(identifier: "UTC")!)
    static let tools = [TestSkills.clockNow, TestSkills.countWords, TestSkills.addReminder].map {
        ToolSpec(name: $0.tool.id.replacingOccurrences(of: ".", with: "_"), tool: $0.tool)
    }

    @Test func templatesFillSlotsByType() throws {
        let plan = OfflinePlanner(filler: Self.filler).plan("Remind me to buy milk at the store at 6pm", tools: Self.tools)
        let step = try #require(plan.steps.first)
        #expect(step.toolName == "reminders_add")
        #expect(step.arguments == ["title": "buy milk at the store", "time": "18:00:00Z"])
        #expect(plan.unmapped.isEmpty)
    }

    @Test func multiStepRequestsSplitInOrder() {
        let plan = OfflinePlanner(filler: Self.filler).plan(
            "please tell me what time is it in Asia/Tokyo, then count the words in hello big world and then remind me to stretch at 10:30",
            tools: Self.tools)
        #expect(plan.steps.map(\.toolName) == ["clock_now", "text_count_words", "reminders_add"])
        #expect(plan.steps[0].arguments == ["timezone": "Asia/Tokyo"])
        #expect(plan.steps[1].arguments == ["text": "hello big world"])
        #expect(plan.steps[2].arguments == ["title": "stretch", "time": "10:30:00Z"])
    }

    @Test func andSplitsOnlyWhenTheWholeClauseDoesNotMatch() {
        let planner = OfflinePlanner(filler: Self.filler)
        #expect(planner.plan("count the words in salt and pepper", tools: Self.tools).steps.map(\.arguments) == [["text": "salt and pepper"]])
        let both = planner.plan("what time is it in UTC and remind me to eat at noon", tools: Self.tools)
        #expect(both.steps.map(\.toolName) == ["clock_now", "reminders_add"])
    }

    @Test func unmappedClausesAreKept() {
        let plan = OfflinePlanner(filler: Self.filler).plan("order a pizza, then what time is it in UTC", tools: Self.tools)
        #expect(plan.unmappedClauses == ["order a pizza"])
        #expect(plan.steps.map(\.toolName) == ["clock_now"])
    }

    @Test func slotTypesRejectWordsThatDoNotFit() {
        #expect(Self.filler.value(for: ["ten"], schema: ["type": "integer"]) == 10)
        #expect(Self.filler.value(for: ["many"], schema: ["type": "integer"]) == nil)
        #expect(Self.filler.value(for: ["yes"], schema: ["type": "boolean"]) == true)
        #expect(Self.filler.value(for: ["Red"], schema: ["enum": ["red", "green"]]) == "red")
        #expect(Self.filler.value(for: ["blue"], schema: ["enum": ["red", "green"]]) == nil)
        #expect(Self.filler.value(for: ["tomorrow"], schema: ["type": "string", "format": "date"]) == "2026-02-11")
        #expect(Self.filler.value(for: ["friday"], schema: ["type": "string", "format": "date"]) == "2026-02-13")
        #expect(Self.filler.value(for: ["13pm"], schema: ["type": "string", "format": "time"]) == nil)
        #expect(Self.filler.value(for: ["tomorrow", "at", "9:15am"], schema: ["type": "string", "format": "date-time"]) == "2026-02-11T09:15:00Z")
        #expect(Self.filler.value(for: ["\"quoted", "text\""], schema: ["type": "string"]) == "quoted text")
        #expect(Self.filler.value(for: ["abc"], schema: ["type": "string", "pattern": "^[0-9]+$"]) == nil)
    }

    @Test func offsetZonesAppearInTimes() {
        let paris = SlotFiller(now: Date(timeIntervalSince1970: 1_770_710_400), timeZone: TimeZone(identifier: "Europe/Paris")!)
        #expect(paris.value(for: ["10am"], schema: ["type": "string", "format": "time"]) == "10:00:00+01:00")
    }
}

/// Whole turns through the offline provider and the loop.
@Suite struct OfflineTurnTests {
    static func agent(_ backend: InMemorySkillBackend, approval: any ApprovalHandler = DenyAllApproval(), maxSteps: Int = 8) -> Agent {
        let provider = OfflineProvider(now: { Date(timeIntervalSince1970: 1_770_710_400) }, timeZone: TimeZone(identifier: "UTC")!)
        return Agent(provider: provider, backend: backend, configuration: AgentConfiguration(maxSteps: maxSteps, approval: approval))
    }

    @Test func twoSkillsInOneRequest() async {
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let all = await events(of: Self.agent(backend), "What time is it in Asia/Tokyo, then count the words in hello big world")
        #expect(all.states == [.thinking, .needSkill, .executingSkill, .thinking, .needSkill, .executingSkill, .thinking, .generating, .finished])
        #expect(backend.invocations.map(\.skillID) == ["clock.now", "text.count_words"])
        #expect(all.answer == "- Current time: 10:00 in Asia/Tokyo\n- Word count: words: 3")
    }

    @Test func saysPlainlyWhenItCannotMapARequest() async {
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Self.agent(backend), "book me a flight to Rome")
        #expect(backend.invocations.isEmpty)
        #expect(all.answer == "I could not map \"book me a flight to Rome\" to any enabled skill. Try phrasing it like: \"what time is it in {timezone}\".")
        #expect(all.states == [.thinking, .generating, .finished])
    }

    @Test func failuresAndDenialsArePhrased() async {
        let backend = TestSkills.backend(TestSkills.failing, TestSkills.addReminder)
        let all = await events(of: Self.agent(backend), "read the file /etc/nothing, then remind me to call Bob at 5pm")
        #expect(all.skillFailures.map(\.kind) == ["skillFailed", "denied"])
        let answer = all.answer ?? ""
        #expect(answer.contains("Read file failed: files.read failed: no such file /etc/nothing; check the path"))
        #expect(answer.contains("Add reminder failed: skill reminders.add (write) needs approval and no one was asked; pass --yes"))
    }

    @Test func approvedWriteRuns() async {
        let backend = TestSkills.backend(TestSkills.addReminder)
        let all = await events(of: Self.agent(backend, approval: AllowAllApproval()), "remind me to call Bob at 5pm")
        #expect(backend.invocations.first?.arguments == ["title": "call Bob", "time": "17:00:00Z"])
        #expect(all.answer == "Add reminder: created: yes, title: call Bob, time: 17:00:00Z")
    }

    @Test func stepCapStopsAndSaysWhatIsLeft() async {
        let backend = TestSkills.backend(TestSkills.clockNow)
        let all = await events(of: Self.agent(backend, maxSteps: 1), "what time is it in UTC, then what time is it in CET")
        #expect(backend.invocations.count == 1)
        #expect(all.answer?.contains("I stopped before \"what time is it in CET\" (step limit reached).") == true)
    }
}

@Suite struct SlotPatternTests {
    @Test func relativeDatesFillDateShapedPatterns() {
        let datePattern: JSONValue = ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})?)?$"]
        #expect(OfflinePlannerTests.filler.value(for: ["tomorrow"], schema: datePattern) == "2026-02-11")
        #expect(OfflinePlannerTests.filler.value(for: ["friday", "at", "10am"], schema: datePattern) == "2026-02-13T10:00:00Z")
        #expect(OfflinePlannerTests.filler.value(for: ["2026-03-01"], schema: datePattern) == "2026-03-01")
        #expect(OfflinePlannerTests.filler.value(for: ["someday"], schema: datePattern) == nil)
    }
}

@Suite struct WeakSeparatorTests {
    static let tools = OfflinePlannerTests.tools

    @Test func sentencesInsideASlotStayTogether() {
        let plan = OfflinePlanner(filler: OfflinePlannerTests.filler).plan("count the words in Cats sleep. Dogs bark; birds sing", tools: Self.tools)
        #expect(plan.steps.map(\.arguments) == [["text": "Cats sleep. Dogs bark; birds sing"]])
        #expect(plan.unmapped.isEmpty)
    }

    @Test func sentencesThatAreEachAStepSplit() {
        let plan = OfflinePlanner(filler: OfflinePlannerTests.filler).plan("What time is it in UTC. Count the words in a b c.", tools: Self.tools)
        #expect(plan.steps.map(\.toolName) == ["clock_now", "text_count_words"])
        #expect(plan.steps[1].arguments == ["text": "a b c"])
    }
}

/// The remaining turn scenarios through the offline planner.
@Suite struct OfflineScenarioTests {
    @Test func aSkillThatTimesOut() async {
        let backend = TestSkills.backend(TestSkills.sleeper(seconds: 30, timeout: 0.2))
        let agent = Agent(
            provider: OfflineTurnTests.agent(backend).provider, backend: backend,
            configuration: AgentConfiguration())
        let all = await events(of: agent, "wait for the report")
        #expect(all.skillFailures.map(\.kind) == ["timeout"])
        let answer = all.answer ?? ""
        #expect(answer.hasPrefix("Wait failed: skill slow.wait timed out after "), "\(answer)")
        #expect(answer.contains("(limit 0.2 s)"), "\(answer)")
    }

    @Test func historyTrimmingNeverSeparatesCallsFromResults() async {
        let backend = TestSkills.backend(TestSkills.clockNow, TestSkills.countWords)
        let provider = RecordingProvider(OfflineTurnTests.agent(backend).provider)
        let agent = Agent(provider: provider, backend: backend, configuration: AgentConfiguration(historyTokenBudget: 200))
        for index in 0..<6 {
            _ = await events(of: agent, "what time is it in UTC, then count the words in turn number \(index) of many")
        }
        #expect(backend.invocations.count == 12)
        for request in provider.requests {
            #expect(HistoryTrimmerTests.callsAndResultsTogether(Array(request.messages.drop { $0.role == .system })))
        }
        let last = provider.requests.last?.messages ?? []
        #expect(last.contains { $0.role == .system && $0.content.contains("Earlier conversation trimmed") })
        #expect(!last.contains { $0.role == .user && $0.content.contains("turn number 0 ") })
    }
}

@Suite struct TimeZoneSlotTests {
    @Test func citiesBecomeZoneIdentifiersForZoneParameters() {
        let filler = OfflinePlannerTests.filler
        let schema: JSONValue = ["type": "string"]
        #expect(filler.value(for: ["Paris"], schema: schema, parameter: "timezone") == "Europe/Paris")
        #expect(filler.value(for: ["new", "york"], schema: schema, parameter: "to_timezone") == "America/New_York")
        #expect(filler.value(for: ["UTC"], schema: schema, parameter: "timezone") == "UTC")
        #expect(filler.value(for: ["Atlantis"], schema: schema, parameter: "timezone") == "Atlantis")
        #expect(filler.value(for: ["Paris"], schema: schema, parameter: "city") == "Paris")
    }
}
