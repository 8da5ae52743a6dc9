import SkillJSON
import Testing

@testable import SkillAgent

/// "check tomorrow morning …, then add a 10:00 workout reminder": a bare time in a later step is on the day
/// an earlier step named; and a turn that looked something up, then changed something, reads as one sentence.
@Suite struct OfflinePlannerCarriedDayTests {
    static func step(_ clause: String, _ arguments: JSONValue) -> OfflinePlan.Step {
        OfflinePlan.Step(clause: clause, toolName: "t", arguments: arguments)
    }

    @Test func aBareTimeTakesTheDayOfAnEarlierStep() {
        let plan = OfflinePlan(
            steps: [
                Self.step("check tomorrow morning for a free slot", ["date": "2026-12-01", "part_of_day": "morning"]),
                Self.step("add a 10:00 workout reminder", ["title": "workout", "due": "2026-11-30T10:00:00+01:00"]),
            ], unmapped: [])
        let carried = plan.carryingDates(today: "2026-11-30")
        #expect(carried.steps[1].arguments["due"] == "2026-12-01T10:00:00+01:00")
        #expect(carried.steps[0] == plan.steps[0])
    }

    @Test func todaySaidOutLoudOrNoEarlierDayKeepsToday() {
        let said = OfflinePlan(
            steps: [
                Self.step("free slot tomorrow", ["date": "2026-12-01"]),
                Self.step("add a workout reminder today at 10:00", ["due": "2026-11-30T10:00:00Z"]),
            ], unmapped: [])
        #expect(said.carryingDates(today: "2026-11-30") == said)
        let alone = OfflinePlan(steps: [Self.step("add a 10:00 workout reminder", ["due": "2026-11-30T10:00:00Z"])], unmapped: [])
        #expect(alone.carryingDates(today: "2026-11-30") == alone)
        let dateOnly = OfflinePlan(
            steps: [Self.step("free slot tomorrow", ["date": "2026-12-01"]), Self.step("what is due", ["before": "2026-11-30"])],
            unmapped: [])
        #expect(dateOnly.carryingDates(today: "2026-11-30") == dateOnly, "a whole day is not a bare time")
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
