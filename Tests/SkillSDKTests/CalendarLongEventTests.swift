import CSkillABI
import Foundation
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

/// `calendar.list_events` on an event whose occurrences each last past thousands of the next ones (the
/// iCalendar fuzz finding of issue #16): the latest are listed at once, and a warning says what was left out.
@Suite struct CalendarLongEventTests {
    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary.swiftProduct("CalendarSkill") }

    @Test func occurrencesLastingIntoTheRangeFromCenturiesAgoAreBoundedWithAWarning() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:old\r\nDTSTART:10130503T100000Z\r\n"
            + "DTEND:20261006T103000Z\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:Planning\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try text.write(toFile: folder.file, atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let listed = await folder.call(
            plugin, "calendar.list_events", ["from": "2026-01-01", "to": "2026-03-01", "limit": 5])
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(listed.status == SKILL_STATUS_OK, "\(listed.text)")
        #expect(listed.json?["count"] == 5)
        #expect(listed.json?["truncated"] == true)
        let warning = listed.json?["warnings"]?.arrayValue?.first?.stringValue ?? ""
        #expect(warning.contains("line 2"), "\(warning)")
        #expect(warning.contains("\"Planning\""), "\(warning)")
        #expect(warning.contains("DTSTART, DTEND or DURATION"), "\(warning)")
    }
}
