import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// "and tomorrow?", "and in Paris?": a follow-up takes the last request's skill with the new value, and an
/// answer to a question back completes the request that asked it. Over every bundled skill (as built), with
/// an in-memory backend that records the calls; "now" is Monday 2026-11-30 17:00 in Europe/Berlin.
@Suite struct OfflineFollowUpTests {
    /// An agent over the bundled tools whose skills answer `{"ok": true}`, keeping its history across turns.
    static func agent() async throws -> (Agent, InMemorySkillBackend) {
        let tools = try await BuiltSkills.tools()
        let backend = InMemorySkillBackend(tools.map { spec in InMemorySkillBackend.Skill(tool: spec.tool, body: { _ in ["ok": true] }) })
        let provider = OfflineProvider(now: { OfflinePlannerCorpusTests.now }, timeZone: OfflinePlannerCorpusTests.zone)
        return (Agent(provider: provider, backend: backend, configuration: AgentConfiguration(approval: AllowAllApproval())), backend)
    }

    /// The calls each turn of `turns` made, as skill id and arguments, and the last answer.
    static func run(_ turns: [String]) async throws -> (calls: [[String]], answer: String) {
        let (agent, backend) = try await agent()
        var calls: [[String]] = []
        var answer = ""
        for turn in turns {
            let before = backend.invocations.count
            answer = await events(of: agent, turn).answer ?? ""
            calls.append(backend.invocations.dropFirst(before).map { "\($0.skillID) \($0.arguments.serialized(options: .sortedKeys))" })
        }
        return (calls, answer)
    }

    @Test func andTomorrowTakesTheLastSkillWithTheNewDay() async throws {
        let (calls, _) = try await Self.run(["what's on my calendar today?", "and tomorrow?", "what about next week?"])
        #expect(
            calls == [
                [#"calendar.list_events {"from":"2026-11-30"}"#], [#"calendar.list_events {"from":"2026-12-01"}"#],
                [#"calendar.list_events {"from":"2026-12-07","to":"2026-12-13"}"#],
            ])
    }

    @Test func andInParisTakesTheLastSkillWithTheNewZone() async throws {
        let (calls, _) = try await Self.run(["what time is it in Tokyo", "and in Paris?", "how about New York"])
        #expect(
            calls == [
                [#"clock.now {"timezone":"Asia/Tokyo"}"#], [#"clock.now {"timezone":"Europe/Paris"}"#],
                [#"clock.now {"timezone":"America/New_York"}"#],
            ])
        // The other values stay: a conversion keeps its time and source zone, and changes where it is shown.
        let (converted, _) = try await Self.run(["convert 14:00 from London to New York", "and to Tokyo?"])
        #expect(converted.last == [#"clock.convert {"from_timezone":"Europe/London","time":"2026-11-30T14:00:00","to_timezone":"Asia/Tokyo"}"#])
    }

    @Test func anAnswerToAQuestionCompletesTheRequest() async throws {
        let (later, _) = try await Self.run(["remind me to call mom later", "tomorrow at 9am"])
        #expect(later == [[], [#"reminders.add {"due":"2026-12-01T09:00:00+01:00","title":"call mom"}"#]])
        let (past, _) = try await Self.run(["remind me to call mom at 9", "tomorrow"])
        #expect(past == [[], [#"reminders.add {"due":"2026-12-01T09:00:00+01:00","title":"call mom"}"#]])
        let (morning, _) = try await Self.run(["remind me to stretch tomorrow morning", "at 8"])
        #expect(morning == [[], [#"reminders.add {"due":"2026-12-01T08:00:00+01:00","title":"stretch"}"#]])
    }

    @Test func aSkillThatCannotTakeTheValueSaysSo() async throws {
        let (calls, answer) = try await Self.run(["what time is it in Paris", "and tomorrow?"])
        #expect(calls.last == [])
        #expect(
            answer == "I could not use \"tomorrow\" in \"and tomorrow\": Current time (clock.now) takes no date or time, so I did "
                + "not run it. Say it like: \"what time is it in {timezone}\".")
        let (zone, zoneAnswer) = try await Self.run(["list my reminders", "and in Paris?"])
        #expect(zone.last == [])
        #expect(zoneAnswer == "I could not use \"Paris\" in \"and in Paris\": List reminders (reminders.list) takes no time zone, so I did not run it.")
    }

    @Test func aRequestOfItsOwnIsNoFollowUp() async throws {
        let (calls, _) = try await Self.run(["what time is it in Tokyo", "and list my reminders", "tomorrow"])
        #expect(calls[1] == [#"reminders.list {}"#])
        // A day alone after it is its new date: what is due by tomorrow.
        #expect(calls[2] == [#"reminders.list {"due_before":"2026-12-01"}"#])
    }
}
