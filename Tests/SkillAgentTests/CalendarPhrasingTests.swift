import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// What people type about their calendar and reminders reaches the right skill with the right values when
/// every bundled plugin is installed (so clock's date skills compete for the same words).
@Suite(.serialized) struct CalendarPhrasingTests {
    /// Monday 2026-11-30 00:00 UTC.
    static let planner = OfflinePlanner(
        filler: SlotFiller(now: Date(timeIntervalSince1970: 1_795_996_800), timeZone: TimeZone(identifier: "UTC")!))

    @Test func calendarAndReminderPhrasesReachTheirSkills() async throws {
        let tools = try await BuiltSkills.tools()
        let cases: [(String, [String], [JSONValue])] = [
            (
                "check tomorrow morning in my calendar for a free slot, then add a 10:00 workout reminder",
                ["calendar_find_free_slots", "reminders_add"],
                [["date": "2026-12-01", "part_of_day": "morning"], ["title": "workout", "due": "2026-12-01T10:00:00Z"]]
            ),
            ("when am I free tomorrow", ["calendar_find_free_slots"], [["date": "2026-12-01"]]),
            ("what is in my calendar tomorrow", ["calendar_list_events"], [["from": "2026-12-01"]]),
            ("remind me to call mum at 18:00", ["reminders_add"], [["title": "call mum", "due": "2026-11-30T18:00:00Z"]]),
            ("list my reminders", ["reminders_list"], [[:]]),
            ("mark call mum as done", ["reminders_complete"], [["title": "call mum"]]),
            (
                "add dentist to my calendar on 2026-12-03T15:00", ["calendar_create_event"],
                [["title": "dentist", "start": "2026-12-03T15:00"]]
            ),
            ("what time is it in Tokyo", ["clock_now"], [["timezone": "Asia/Tokyo"]]),
            ("add 3 days to 2026-12-01", ["clock_add"], [["amount": 3, "unit": "days", "start": "2026-12-01"]]),
        ]
        for (text, names, arguments) in cases {
            let plan = Self.planner.plan(text, tools: tools)
            #expect(plan.steps.map(\.toolName) == names, "\(text)")
            #expect(plan.steps.map(\.arguments) == arguments, "\(text)")
            #expect(plan.unmapped.isEmpty, "\(text)")
        }
    }
}
