import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// A request for a disabled skill names the skill and the `skillhost enable` command, instead of "could not
/// map"; nothing is run.
@Suite(.serialized) struct DisabledSkillAnswerTests {
    /// The answer to `sentence` with the skills in `off` disabled (enabled by `enable`), and the calls made.
    static func answer(_ sentence: String, off: [String: [String]]) async throws -> (answer: String, calls: [String]) {
        let tools = try await BuiltSkills.tools()
        let enabled = tools.filter { off[$0.tool.id] == nil }
        let disabled = tools.compactMap { spec in off[spec.tool.id].map { DisabledSkill(tool: spec.tool, enable: $0) } }
        let backend = InMemorySkillBackend(enabled.map { InMemorySkillBackend.Skill(tool: $0.tool, body: { _ in ["ok": true] }) })
        let provider = OfflineProvider(
            now: { OfflinePlannerCorpusTests.now }, timeZone: OfflinePlannerCorpusTests.zone, disabledSkills: { disabled })
        let all = await events(of: Agent(provider: provider, backend: backend, configuration: AgentConfiguration(approval: AllowAllApproval())), sentence)
        return (all.answer ?? "", backend.invocations.map(\.skillID))
    }

    @Test func aDisabledSkillIsNamedWithTheCommandThatEnablesIt() async throws {
        let (answer, calls) = try await Self.answer("what's on my calendar tomorrow?", off: ["calendar.list_events": ["calendar.list_events"]])
        #expect(calls.isEmpty)
        #expect(
            answer == "\"what's on my calendar tomorrow\" needs List calendar events (calendar.list_events), which is disabled, so I "
                + "did not run it. Enable it with 'skillhost enable calendar.list_events' and ask again.")
        let plugin = ["reminders.add": ["reminders"], "reminders.list": ["reminders"], "reminders.complete": ["reminders"]]
        let (reminder, none) = try await Self.answer("remind me to call mom tomorrow at 9am", off: plugin)
        #expect(none.isEmpty)
        #expect(reminder.contains("needs Add a reminder (reminders.add), which is disabled"))
        #expect(reminder.contains("'skillhost enable reminders'"))
    }

    @Test func enabledSkillsStillRunBesideADisabledOne() async throws {
        let (answer, calls) = try await Self.answer(
            "what time is it in Tokyo, then list my reminders", off: ["reminders.list": ["reminders.list"]])
        #expect(calls == ["clock.now"])
        #expect(answer.contains("- \"list my reminders\" needs List reminders (reminders.list), which is disabled"))
    }

    @Test func theHostBackendNamesThePluginOrTheSkillToEnable() async throws {
        let setup = try CalendarScenarioTests.Setup(busyDay: "2036-12-01")
        defer { setup.remove() }
        let registry = """
            {"version": 1, "plugins": {
              "calendar": {"enabled": false, "skills": {"calendar.create_event": {"enabled": false}}},
              "reminders": {"skills": {"reminders.complete": {"enabled": false}}}}}
            """
        try registry.write(toFile: setup.registry, atomically: true, encoding: .utf8)
        let host = setup.host
        let disabled = HostSkillBackend(host: host).disabledSkills()
        await host.shutdown()
        let enable = Dictionary(uniqueKeysWithValues: disabled.map { ($0.tool.id, $0.enable) })
        #expect(
            enable == [
                "calendar.list_events": ["calendar"], "calendar.find_free_slots": ["calendar"],
                "calendar.create_event": ["calendar", "calendar.create_event"], "reminders.complete": ["reminders.complete"],
            ])
    }
}
