import Foundation
import Testing

@testable import SkillAgent

/// README's `skillhost chat --continue "and tomorrow?"` through the real binary and calendar plugin: the
/// follow-up takes the last request's skill with the new day, and the answer names the event.
@Suite(.serialized) struct ChatContinueEndToEndTests {
    @Test func andTomorrowContinuesTheLastRequestWithItsSkill() throws {
        let day = CalendarScenarioTests.tomorrow()
        let setup = try CalendarScenarioTests.Setup(busyDay: day)
        defer { setup.remove() }
        let first = try setup.chat(["what's on my calendar today?"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("[ok] calendar.list_events"), "\(first.out)")
        let next = try setup.chat(["--continue", "and tomorrow?"])
        #expect(next.status == 0, "\(next.err)")
        #expect(next.err.contains("resuming session"), "\(next.err)")
        #expect(next.out.contains("[ok] calendar.list_events: 1 event between \(day)T00:00:00"), "\(next.out)")
        // The answer says what the day holds, not only how many.
        #expect(next.out.contains("  - Standup — ") && next.out.contains("\(day) 09:00–09:30"), "\(next.out)")
    }
}
