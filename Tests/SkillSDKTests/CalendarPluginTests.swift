import CSkillABI
import Foundation
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

@Suite struct CalendarPluginTests {
    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary.swiftProduct("CalendarSkill") }

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func manifestFollowsTheContract() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "calendar")
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
        let skills = manifest["skills"]?.arrayValue ?? []
        #expect(skills.compactMap { $0["id"]?.stringValue }
            == ["calendar.create_event", "calendar.list_events", "calendar.find_free_slots"])
        #expect(skills.compactMap { $0["permission"]?.stringValue } == ["write", "read", "read"])
        for skill in skills {
            let id = skill["id"]!
            #expect((skill["examples"]?.arrayValue?.count ?? 0) >= 4, "\(id) needs several examples")
            let description = skill["description"]?.stringValue ?? ""
            #expect(description.contains("Not "), "\(id) says what it is not for")
            #expect(description.contains("reminders."), "\(id) names the reminders skill to use instead")
            #expect(skill["summary"]?.stringValue != nil)
            #expect(skill["parameters"]?["additionalProperties"] == false)
        }
    }

    @Test func summaryTemplatesFitRealResults() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let calls: [String: JSONValue] = [
            "calendar.create_event": ["title": "X", "start": "2030-12-02T10:00"],
            "calendar.list_events": ["from": "2030-12-02"],
            "calendar.find_free_slots": ["date": "2030-12-02"],
        ]
        for skill in try plugin.manifest()["skills"]?.arrayValue ?? [] {
            let id = try #require(skill["id"]?.stringValue)
            let call = await folder.call(plugin, id, try #require(calls[id]))
            #expect(call.status == SKILL_STATUS_OK, "\(id): \(call.text)")
            for slot in templateSlots(skill["summary"]?.stringValue ?? "") {
                #expect(call.json?[slot] != nil, "\(id) has no \(slot) for its summary")
            }
        }
    }

    @Test func createdEventIsListedInTheUsersZoneAndStoredInUTC() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let created = await folder.call(plugin, "calendar.create_event", [
            "title": "Dentist; bring card", "start": "2026-12-01T10:00", "duration_minutes": 45,
            "location": "Main St, 5", "notes": "line one\nline two",
        ])
        #expect(created.status == SKILL_STATUS_OK, "\(created.text)")
        #expect(created.json?["start"] == "2026-12-01T10:00:00+01:00")
        #expect(created.json?["end"] == "2026-12-01T10:45:00+01:00")
        #expect(created.json?["created"] == true)
        #expect(folder.text.contains("DTSTART:20261201T090000Z\r\n"))
        #expect(folder.text.contains("SUMMARY:Dentist\\; bring card\r\n"))
        #expect(folder.text.contains("LOCATION:Main St\\, 5\r\n"))
        #expect(folder.text.contains("DESCRIPTION:line one\\nline two\r\n"))
        #expect(folder.text.contains("DTSTAMP:"))
        let listed = await folder.call(plugin, "calendar.list_events", ["from": "2026-12-01"])
        #expect(listed.status == SKILL_STATUS_OK, "\(listed.text)")
        let events = listed.json?["events"]?.arrayValue ?? []
        #expect(events.count == 1)
        #expect(events.first?["title"] == "Dentist; bring card")
        #expect(events.first?["notes"] == "line one\nline two")
        #expect(events.first?["uid"] == created.json?["uid"])
        #expect(listed.json?["to"] == "2026-12-02T00:00:00+01:00")
    }

    @Test func aFileThatCarriesTheUsersZoneGetsTimesInIt() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        try folder.install(fixture: "google-export.ics")
        let created = await folder.call(plugin, "calendar.create_event", ["title": "Zoned", "start": "2026-07-01T10:00"])
        #expect(created.status == SKILL_STATUS_OK, "\(created.text)")
        #expect(created.json?["start"] == "2026-07-01T10:00:00+02:00")
        #expect(folder.text.contains("DTSTART;TZID=Europe/Berlin:20260701T100000\r\n"))
        #expect(folder.text.contains("DTEND;TZID=Europe/Berlin:20260701T110000\r\n"))
        let listed = await folder.call(plugin, "calendar.list_events", ["from": "2026-07-01"])
        #expect(listed.json?["events"]?.arrayValue?.first?["zone"] == "Europe/Berlin")
    }

    @Test func theSameIdempotencyKeyTwiceCreatesOneEvent() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let arguments: JSONValue = ["title": "Gym", "start": "2026-12-02T18:00"]
        let first = await folder.call(plugin, "calendar.create_event", arguments, key: "retry-me")
        let second = await folder.call(plugin, "calendar.create_event", arguments, key: "retry-me")
        let other = await folder.call(plugin, "calendar.create_event", arguments, key: "another-call")
        #expect(first.json?["created"] == true)
        #expect(second.json?["created"] == false)
        #expect(second.json?["uid"] == first.json?["uid"])
        #expect(other.json?["uid"] != first.json?["uid"])
        #expect(folder.text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 2)
    }

    @Test func aDateAloneMakesAnAllDayEvent() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let created = await folder.call(plugin, "calendar.create_event", ["title": "Holiday", "start": "2026-12-24", "end": "2026-12-26"])
        #expect(created.status == SKILL_STATUS_OK, "\(created.text)")
        #expect(created.json?["all_day"] == true)
        #expect(folder.text.contains("DTSTART;VALUE=DATE:20261224\r\n"))
        #expect(folder.text.contains("DTEND;VALUE=DATE:20261226\r\n"))
        #expect(created.json?["end"] == "2026-12-26")
    }

    @Test func recurringEventsAreExpandedWithoutTheirExceptions() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        try folder.install(fixture: "mixed-content.ics")
        let listed = await folder.call(plugin, "calendar.list_events", ["from": "2026-11-02", "to": "2026-11-11"])
        #expect(listed.status == SKILL_STATUS_OK, "\(listed.text)")
        let starts = listed.json?["events"]?.arrayValue?.compactMap { $0["start"]?.stringValue }
        // Mondays and Wednesdays, without Wednesday 4 November (EXDATE).
        #expect(starts == ["2026-11-02T09:30:00+01:00", "2026-11-09T09:30:00+01:00", "2026-11-11T09:30:00+01:00"])
        #expect(listed.json?["events"]?.arrayValue?.first?["zone"] == "Europe/Berlin")
        #expect(listed.json?["events"]?.arrayValue?.first?["recurring"] == true)
    }

    @Test func rulesThatAreNotExpandedExactlyAreNamed() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:p\r\nDTSTART:20261201T090000Z\r\n"
            + "RRULE:FREQ=YEARLY;BYWEEKNO=20\r\nSUMMARY:Week 20\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try text.write(toFile: folder.file, atomically: true, encoding: .utf8)
        let listed = await folder.call(plugin, "calendar.list_events", ["from": "2026-12-01", "to": "2026-12-31"])
        #expect(listed.status == SKILL_STATUS_OK)
        #expect(listed.json?["warnings"]?.arrayValue?.first?.stringValue?.contains("line 5: \"Week 20\" repeats with RRULE BYWEEKNO") == true)
    }

    @Test func theLastWorkdayOfEachMonthIsExpanded() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:p\r\nDTSTART:20261201T090000Z\r\n"
            + "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1\r\nSUMMARY:Payday\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        try text.write(toFile: folder.file, atomically: true, encoding: .utf8)
        let listed = await folder.call(plugin, "calendar.list_events", ["from": "2026-12-01", "to": "2027-02-28"])
        #expect(listed.status == SKILL_STATUS_OK)
        // Thursday 31 December, Friday 29 January, Friday 26 February (DTSTART, a Tuesday, counts too).
        #expect(listed.json?["events"]?.arrayValue?.compactMap { $0["start"]?.stringValue?.prefix(10) }
            == ["2026-12-01", "2026-12-31", "2027-01-29", "2027-02-26"])
        #expect(listed.json?["warnings"]?.arrayValue == [])
    }

    @Test func freeSlotsAreTheGapsInTheMorning() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        for (title, start, minutes) in [("Call", "2030-12-02T09:30", 30), ("Review", "2030-12-02T11:00", 30),
                                        ("Lunch", "2030-12-02T12:00", 60)] {
            let created = await folder.call(
                plugin, "calendar.create_event", ["title": .string(title), "start": .string(start), "duration_minutes": .int(Int64(minutes))])
            #expect(created.status == SKILL_STATUS_OK)
        }
        let found = await folder.call(plugin, "calendar.find_free_slots", ["date": "2030-12-02", "part_of_day": "morning"])
        #expect(found.status == SKILL_STATUS_OK, "\(found.text)")
        let slots = found.json?["slots"]?.arrayValue?.map { "\($0["start"]!.stringValue!.prefix(16))/\($0["minutes"]!)" }
        #expect(slots == ["2030-12-02T09:00/30", "2030-12-02T10:00/60", "2030-12-02T11:30/30"])
        #expect(found.json?["first_slot"] == "09:00–09:30 on 2030-12-02")
        let long = await folder.call(
            plugin, "calendar.find_free_slots",
            ["date": "2030-12-02", "min_minutes": 45, "working_hours_start": "08:00", "working_hours_end": "18:00"])
        let longSlots = long.json?["slots"]?.arrayValue?.map { "\($0["start"]!.stringValue!.prefix(16))/\($0["minutes"]!)" }
        #expect(longSlots == ["2030-12-02T08:00/90", "2030-12-02T10:00/60", "2030-12-02T13:00/300"])
    }

    @Test func badRangesAndTimesAreInvalidArgumentsWithAFix() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let backwards = await folder.call(plugin, "calendar.create_event", ["title": "X", "start": "2026-12-01T10:00", "end": "2026-12-01T09:00"])
        #expect(backwards.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(backwards.json?["field"] == "/end")
        let both = await folder.call(plugin, "calendar.create_event", ["title": "X", "start": "2026-12-01T10:00", "end": "2026-12-01T11:00", "duration_minutes": 5])
        #expect(both.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(both.json?["remedy"] != nil)
        let impossible = await folder.call(plugin, "calendar.create_event", ["title": "X", "start": "2026-02-30T10:00"])
        #expect(impossible.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(impossible.json?["field"] == "/start")
        let hours = await folder.call(plugin, "calendar.find_free_slots", ["working_hours_start": "18:00", "working_hours_end": "09:00"])
        #expect(hours.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(hours.json?["field"] == "/working_hours_end")
        let range = await folder.call(plugin, "calendar.list_events", ["from": "2026-12-05", "to": "2026-12-01"])
        #expect(range.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(FileManager.default.fileExists(atPath: folder.file) == false, "no call above may create the file")
    }

    @Test func aBrokenLineIsSkippedNamedAndKept() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:b\r\nSUMMARY\r\nDTSTART:20261201T080000Z\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        try broken.write(toFile: folder.file, atomically: true, encoding: .utf8)
        let listed = await folder.call(plugin, "calendar.list_events", ["from": "2026-12-01"])
        #expect(listed.status == SKILL_STATUS_OK, "\(listed.text)")
        #expect(listed.json?["events"]?.arrayValue?.map { $0["uid"] } == ["b"])
        #expect(listed.json?["warnings"]?.arrayValue?.map(\.stringValue) == [
            "\(folder.file): line 5: skipped \"SUMMARY\": property SUMMARY has no ':' before its value; write it as "
                + "SUMMARY:value (quote parameter values that contain ':' ';' or ',')"
        ])
        let created = await folder.call(plugin, "calendar.create_event", ["title": "X", "start": "2026-12-01T10:00"])
        #expect(created.status == SKILL_STATUS_OK, "\(created.text)")
        #expect(created.json?["warnings"]?.arrayValue?.count == 1)
        #expect(folder.text.hasPrefix(broken.replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")))
        #expect(folder.text.contains("\r\nSUMMARY:X\r\n"))
    }

    @Test func aFileWithNothingReadableIsReportedWithItsLineAndNeverOverwritten() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let broken = "VERSION:2.0\r\nSUMMARY:not a calendar\r\n"
        try broken.write(toFile: folder.file, atomically: true, encoding: .utf8)
        let created = await folder.call(plugin, "calendar.create_event", ["title": "X", "start": "2026-12-01T10:00"])
        #expect(created.status == SKILL_STATUS_FAILED)
        #expect(created.json?["message"]?.stringValue?.contains("user.ics: line 1:1: no iCalendar component can be read") == true, "\(created.text)")
        #expect(created.json?["remedy"]?.stringValue?.contains("BEGIN:VCALENDAR") == true)
        #expect(folder.text == broken)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["user.ics"], "no temporary files")
        let listed = await folder.call(plugin, "calendar.list_events", [:])
        #expect(listed.status == SKILL_STATUS_FAILED)
    }

    @Test func badConfigurationSaysWhichKeyToFix() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let zone = await folder.call(plugin, "calendar.list_events", [:], configuration: "{\"timezone\":\"Mars/Base\"}")
        #expect(zone.status == SKILL_STATUS_FAILED)
        #expect(zone.json?["message"]?.stringValue?.contains("config.timezone") == true)
        let path = await folder.call(plugin, "calendar.list_events", [:], configuration: "{\"calendar_file\":42}")
        #expect(path.status == SKILL_STATUS_FAILED)
        #expect(path.json?["message"]?.stringValue?.contains("config.calendar_file") == true)
    }

    @Test func aFolderInsteadOfAFileIsAFailureNamingThePath() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let configuration = "{\"calendar_file\":\"\(folder.path)\"}"
        let created = await folder.call(
            plugin, "calendar.create_event", ["title": "X", "start": "2026-12-01T10:00"], configuration: configuration)
        #expect(created.status == SKILL_STATUS_FAILED)
        #expect(created.json?["message"]?.stringValue?.hasPrefix(folder.path + ": cannot open it for writing") == true, "\(created.text)")
        #expect(created.json?["remedy"] != nil)
        let listed = await folder.call(plugin, "calendar.list_events", [:], configuration: configuration)
        #expect(listed.status == SKILL_STATUS_FAILED)
        #expect(listed.json?["message"]?.stringValue?.hasPrefix(folder.path + ": cannot read it") == true, "\(listed.text)")
    }

    @Test func withoutConfigTheFileIsInTheDataFolder() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        let created = await folder.call(plugin, "calendar.create_event", ["title": "X", "start": "2026-12-01T10:00"], configuration: "{}")
        #expect(created.status == SKILL_STATUS_OK, "\(created.text)")
        #expect(created.json?["file"] == .string(folder.path + "/calendar.ics"))
    }

    @Test func creatingKeepsEverythingElseInTheFile() async throws {
        let folder = try CalendarFolder(configKey: "calendar_file")
        defer { folder.remove() }
        try folder.install(fixture: "mixed-content.ics")
        let before = folder.text
        let created = await folder.call(plugin, "calendar.create_event", ["title": "New", "start": "2026-12-01T10:00"])
        #expect(created.status == SKILL_STATUS_OK, "\(created.text)")
        let after = folder.text
        // The rest of the file is unchanged: removing the new VEVENT gives back the original bytes.
        let start = try #require(after.range(of: "BEGIN:VEVENT\r\nUID:\(created.json?["uid"]?.stringValue ?? "?")"))
        let end = try #require(after.range(of: "END:VEVENT\r\n", range: start.upperBound..<after.endIndex))
        var rest = after
        rest.removeSubrange(start.lowerBound..<end.upperBound)
        #expect(rest == before)
    }
}
