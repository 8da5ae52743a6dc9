import SkillCalls
import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// "check tomorrow morning …, then add a 10:00 workout reminder": a bare time in a later step is on the day
/// an earlier step named; and a turn that looked something up, then changed something, reads as one sentence.
@Suite struct OfflinePlannerCarriedDayTests {
    /// The bundled skills with calendar and reminders skills of the shape the plugins declare.
    static let tools: [ToolSpec] = {
        let date: JSONValue = [
            "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+-][0-9]{2}:[0-9]{2})?)?$",
        ]
        let free = SkillTool(
            id: "calendar.find_free_slots", title: "Find free time", description: "Free slots in the calendar.",
            parameters: [
                "type": "object",
                "properties": [
                    "date": ["type": "string", "format": "date"],
                    "part_of_day": ["type": "string", "enum": ["morning", "afternoon", "evening"]],
                ],
            ], examples: ["check {date} {part_of_day} in my calendar for a free slot"])
        let add = SkillTool(
            id: "reminders.add", title: "Add a reminder", description: "Adds a reminder.",
            parameters: ["type": "object", "properties": ["title": ["type": "string"], "due": date], "required": ["title"]],
            permission: .write, examples: ["add a {due} {title} reminder", "remind me to {title} at {due}"])
        return [free, add].map { ToolSpec(name: $0.id.replacingOccurrences(of: ".", with: "_"), tool: $0) }
    }()

    /// Monday 2026-11-30 16:00 UTC, in Europe/Berlin.
    static let planner = OfflinePlanner(
        filler: SlotFiller(now: Date(timeIntervalSince1970: 1_796_054_400), timeZone: TimeZone(identifier: "Europe/Berlin")!))

    @Test func aBareTimeTakesTheDayOfAnEarlierStep() {
        let plan = Self.planner.plan(
            "check tomorrow morning in my calendar for a free slot, then add a 10:00 workout reminder", tools: Self.tools)
        #expect(plan.steps.map(\.arguments) == [
            ["date": "2026-12-01", "part_of_day": "morning"], ["title": "workout", "due": "2026-12-01T10:00:00+01:00"],
        ])
    }

    @Test func todaySaidOutLoudOrNoEarlierDayKeepsToday() {
        let said = Self.planner.plan(
            "check tomorrow morning in my calendar for a free slot, then add a workout reminder today at 18:00", tools: Self.tools)
        #expect(said.steps.last?.arguments["due"] == "2026-11-30T18:00:00+01:00")
        let alone = Self.planner.plan("add a 18:30 workout reminder", tools: Self.tools)
        #expect(alone.steps.first?.arguments["due"] == "2026-11-30T18:30:00+01:00")
    }

    @Test func aBareTimeAlreadyPastIsAskedAbout() {
        // 10:00 today is past at 17:00, and no earlier step named another day.
        let plan = Self.planner.plan("add a 10:00 workout reminder", tools: Self.tools)
        #expect(plan.steps.isEmpty)
        #expect(plan.unmapped.map(\.reason) == [.question(toolName: "reminders_add", parameter: "", text: "10:00", why: .past(time: "10:00"))])
    }

    @Test func aLookUpThenAChangeIsOneSentence() {
        #expect(
            OfflineAnswer.oneSentence(
                ["Found 1 free slot, 09:30–12:00 on 2026-12-01.", "Added the reminder \"workout\" due 2026-12-01 at 10:00."],
                endsWithChange: true)
                == "Found 1 free slot, 09:30–12:00 on 2026-12-01, then added the reminder \"workout\" due 2026-12-01 at 10:00.")
        #expect(OfflineAnswer.oneSentence(["It is 10:00.", "3 words."], endsWithChange: false) == nil)
        #expect(OfflineAnswer.oneSentence(["Added it."], endsWithChange: true) == nil)
        #expect(OfflineAnswer.oneSentence(["Found it.", "UTC is used."], endsWithChange: true) == "Found it, then UTC is used.")
    }
}
