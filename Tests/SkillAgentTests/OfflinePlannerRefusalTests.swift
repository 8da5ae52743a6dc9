import SkillCalls
import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// What the planner must not do: call a skill for a request no skill serves, call a skill whose required
/// values are not in the sentence, or fill a value with words that are not one. It says so plainly instead,
/// with a phrasing that works.
@Suite struct OfflinePlannerRefusalTests {
    /// The bundled skills behind an in-memory backend that records calls and answers `{"ok": true}`.
    static func backend() -> InMemorySkillBackend {
        InMemorySkillBackend(BundledSkills.tools.map { spec in InMemorySkillBackend.Skill(tool: spec.tool, body: { _ in ["ok": true] }) })
    }

    static func answer(_ sentence: String) async -> (answer: String, calls: [String]) {
        let backend = backend()
        let provider = OfflineProvider(now: { Date(timeIntervalSince1970: 1_770_710_400) }, timeZone: TimeZone(identifier: "UTC")!)
        let all = await events(of: Agent(provider: provider, backend: backend), sentence)
        return (all.answer ?? "", backend.invocations.map(\.skillID))
    }

    @Test(arguments: [
        "book me a flight to Mars", "order a pizza", "what's the weather in Paris", "play some music", "delete all my files",
        "how long is a piece of string", "what time does the store close", "is it going to rain today", "hello",
    ])
    func requestsNoSkillServesAreNotMapped(_ sentence: String) async {
        let plan = BundledSkills.plan(sentence)
        #expect(plan.steps.isEmpty)
        #expect(plan.unmapped.map(\.reason) == [.noMatch])
        let (answer, calls) = await Self.answer(sentence)
        #expect(calls.isEmpty)
        #expect(answer.hasPrefix("I could not map \"\(sentence)\" to any enabled skill. Try phrasing it like: \""))
    }

    @Test func theHintShowsEveryPlugin() async {
        let (answer, _) = await Self.answer("book me a flight to Mars")
        #expect(
            answer == "I could not map \"book me a flight to Mars\" to any enabled skill. Try phrasing it like: \"what is the date "
                + "in {amount} {unit}\", \"which kernel is this\", \"keywords of {text}\", \"what is {time} in {to_timezone}\".")
    }

    @Test func aMissingRequiredValueIsNotGuessed() async {
        let cases: [(String, String, [String])] = [
            ("count the words", "text_stats", ["text"]),
            ("summarize it", "text_summarize", ["text"]),
            ("give me keywords", "text_keywords", ["text"]),
            ("how many days until the launch", "clock_difference", ["to"]),
            ("convert 9:30", "clock_convert", ["to_timezone"]),
        ]
        for (sentence, tool, missing) in cases {
            let plan = BundledSkills.plan(sentence)
            #expect(plan.steps.isEmpty, "\(sentence)")
            #expect(plan.unmapped.map(\.reason) == [.missing(toolName: tool, parameters: missing)], "\(sentence)")
        }
        let (answer, calls) = await Self.answer("how many days until the launch")
        #expect(calls.isEmpty)
        #expect(
            answer == "\"how many days until the launch\" sounds like Time between dates (clock.difference), but I could not "
                + "find its to (The date to measure to) in it, so I did not run it. Say it like: \"how many days until {to}\".")
    }

    @Test func wordsThatAreNoValueAreNotPassedOn() async {
        let plan = BundledSkills.plan("what time is it on Mars")
        #expect(plan.steps.isEmpty)
        #expect(plan.unmapped.map(\.reason) == [.unreadable(toolName: "clock_now", parameter: "timezone", text: "Mars")])
        // "in the morning" is a date the user said, and clock.now takes none: said so, no other skill run.
        let (answer, calls) = await Self.answer("what time is it in the morning")
        #expect(calls.isEmpty)
        #expect(
            answer == "I could not use \"in the morning\" in \"what time is it in the morning\": Current time (clock.now) "
                + "takes no date or time, so I did not run it. Say it like: \"what time is it in {timezone}\".")
    }

    @Test func aTieBetweenSkillsRunsNeither() async {
        let plan = BundledSkills.plan("machine")
        #expect(plan.steps.isEmpty)
        guard case .ambiguous(let tools)? = plan.unmapped.first?.reason else {
            Issue.record("expected an ambiguous reading, got \(plan)")
            return
        }
        #expect(tools.count >= 2)
        #expect(Set(tools).isSubset(of: ["sysinfo_kernel", "sysinfo_load", "sysinfo_overview", "sysinfo_uptime", "sysinfo_memory"]))
        let (answer, calls) = await Self.answer("machine")
        #expect(calls.isEmpty)
        #expect(answer.hasPrefix("I could not tell whether \"machine\" means "))
        #expect(answer.contains(", so I ran neither. Say it like: \""))
    }

    @Test func mappedAndUnmappedPartsAreBothReported() async {
        let (answer, calls) = await Self.answer("what is the uptime, then book me a flight to Mars")
        #expect(calls == ["sysinfo.uptime"])
        let lines = answer.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == "- Uptime: ok: yes")
        #expect(lines.last?.hasPrefix("- I could not map \"book me a flight to Mars\" to any enabled skill. Try phrasing it like:") == true)
    }

    @Test func oddManifestsNeitherCrashNorMatchByAccident() {
        let odd = [
            SkillTool(id: "odd.schema", description: "", parameters: "not an object", examples: ["{unclosed", "", "{a}{b}"]),
            SkillTool(
                id: "odd.properties", title: "Odd", description: "Not for anything (use odd.schema).",
                parameters: ["type": "object", "properties": ["text": 5, "n": ["enum": [1, "two"]]], "required": ["ghost"]],
                examples: ["odd {text} with {n}", "odd {missing}"]),
        ].map { ToolSpec(name: $0.id.replacingOccurrences(of: ".", with: "_"), tool: $0) }
        let planner = OfflinePlanner(filler: BundledSkills.filler)
        for sentence in ["", "   ", "odd", "odd things with two", "'", "\"\"", "odd: ", "then then, then", "anything at all"] {
            let plan = planner.plan(sentence, tools: odd + BundledSkills.tools)
            #expect(!plan.steps.contains { $0.toolName == "odd_schema" }, "\(sentence)")
        }
        // A required parameter the schema does not describe is never filled, so the tool is not called.
        #expect(planner.plan("odd things with two", tools: odd).steps.isEmpty)
        #expect(planner.plan("odd things with two", tools: odd).unmapped.map(\.clause) == ["odd things with two"])
    }
}
