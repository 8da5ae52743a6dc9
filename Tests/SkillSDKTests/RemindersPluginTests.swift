import CSkillABI
import Foundation
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

@Suite struct RemindersPluginTests {
    let plugin: PluginLibrary

    init() throws { plugin = try PluginLibrary.swiftProduct("RemindersSkill") }

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func manifestFollowsTheContract() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "reminders")
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
        let skills = manifest["skills"]?.arrayValue ?? []
        #expect(skills.compactMap { $0["id"]?.stringValue } == ["reminders.add", "reminders.list", "reminders.complete"])
        #expect(skills.compactMap { $0["permission"]?.stringValue } == ["write", "read", "write"])
        for skill in skills {
            let id = skill["id"]!
            #expect((skill["examples"]?.arrayValue?.count ?? 0) >= 4, "\(id) needs several examples")
            let description = skill["description"]?.stringValue ?? ""
            #expect(description.contains("Not "), "\(id) says what it is not for")
            #expect(skill["summary"]?.stringValue != nil)
            #expect(skill["parameters"]?["additionalProperties"] == false)
        }
        #expect(skills.contains { $0["description"]?.stringValue?.contains("calendar.") == true })
    }

    @Test func summaryTemplatesFitRealResults() async throws {
        let folder = try CalendarFolder(configKey: "reminders_file")
        defer { folder.remove() }
        let calls: [(String, JSONValue)] = [
            ("reminders.add", ["title": "X", "due": "2030-12-02"]), ("reminders.list", [:]),
            ("reminders.complete", ["title": "X"]),
        ]
        let skills = try plugin.manifest()["skills"]?.arrayValue ?? []
        for (id, arguments) in calls {
            let call = await folder.call(plugin, id, arguments)
            #expect(call.status == SKILL_STATUS_OK, "\(id): \(call.text)")
            let template = skills.first { $0["id"]?.stringValue == id }?["summary"]?.stringValue ?? ""
            #expect(!template.isEmpty)
            for slot in templateSlots(template) {
                #expect(call.json?[slot] != nil, "\(id) has no \(slot) for its summary")
            }
        }
    }

    @Test func addListCompleteAndListAgain() async throws {
        let folder = try CalendarFolder(configKey: "reminders_file")
        defer { folder.remove() }
        let added = await folder.call(plugin, "reminders.add", [
            "title": "Workout", "due": "2026-12-01T10:00", "priority": "high", "notes": "legs, core",
        ])
        #expect(added.status == SKILL_STATUS_OK, "\(added.text)")
        #expect(added.json?["due"] == "2026-12-01T10:00:00+01:00")
        #expect(added.json?["due_text"] == "due 2026-12-01 at 10:00")
        #expect(folder.text.contains("DUE:20261201T090000Z\r\n"))
        #expect(folder.text.contains("PRIORITY:1\r\n"))
        #expect(folder.text.contains("STATUS:NEEDS-ACTION\r\n"))
        let undated = await folder.call(plugin, "reminders.add", ["title": "Call mum"])
        #expect(undated.json?["due_text"] == "with no due date")

        let open = await folder.call(plugin, "reminders.list", [:])
        #expect(open.json?["reminders"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Workout", "Call mum"])
        let soon = await folder.call(plugin, "reminders.list", ["due_before": "2026-12-01"])
        #expect(soon.json?["reminders"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Workout"])

        let completed = await folder.call(plugin, "reminders.complete", ["title": "workout"])
        #expect(completed.status == SKILL_STATUS_OK, "\(completed.text)")
        #expect(completed.json?["changed"] == true)
        #expect(folder.text.contains("STATUS:COMPLETED\r\n"))
        #expect(folder.text.contains("COMPLETED:"))
        let again = await folder.call(plugin, "reminders.complete", ["uid": added.json!["uid"]!])
        #expect(again.json?["changed"] == false)

        let stillOpen = await folder.call(plugin, "reminders.list", ["status": "open"])
        #expect(stillOpen.json?["reminders"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Call mum"])
        let done = await folder.call(plugin, "reminders.list", ["status": "done"])
        #expect(done.json?["reminders"]?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Workout"])
        #expect(done.json?["reminders"]?.arrayValue?.first?["priority"] == "high")
    }

    @Test func theSameIdempotencyKeyTwiceCreatesOneReminder() async throws {
        let folder = try CalendarFolder(configKey: "reminders_file")
        defer { folder.remove() }
        let first = await folder.call(plugin, "reminders.add", ["title": "Workout"], key: "k-1")
        let second = await folder.call(plugin, "reminders.add", ["title": "Workout"], key: "k-1")
        #expect(first.json?["created"] == true)
        #expect(second.json?["created"] == false)
        #expect(first.json?["uid"] == second.json?["uid"])
        #expect(folder.text.components(separatedBy: "BEGIN:VTODO").count - 1 == 1)
    }

    @Test func completingNamesTheReminderExactly() async throws {
        let folder = try CalendarFolder(configKey: "reminders_file")
        defer { folder.remove() }
        _ = await folder.call(plugin, "reminders.add", ["title": "Water plants"])
        _ = await folder.call(plugin, "reminders.add", ["title": "Water plants"])
        let ambiguous = await folder.call(plugin, "reminders.complete", ["title": "Water plants"])
        #expect(ambiguous.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(ambiguous.json?["remedy"]?.stringValue?.contains("@skillhost") == true)
        let missing = await folder.call(plugin, "reminders.complete", ["title": "Feed the cat"])
        #expect(missing.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(missing.json?["field"] == "/title")
        let unknown = await folder.call(plugin, "reminders.complete", ["uid": "nope"])
        #expect(unknown.json?["field"] == "/uid")
        let nothing = await folder.call(plugin, "reminders.complete", [:])
        #expect(nothing.status == SKILL_STATUS_INVALID_ARGUMENTS)
        let badDue = await folder.call(plugin, "reminders.add", ["title": "X", "due": "2026-13-01"])
        #expect(badDue.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(badDue.json?["field"] == "/due")
    }

    @Test func completeAndAddKeepEverythingElseInTheFile() async throws {
        let folder = try CalendarFolder(configKey: "reminders_file")
        defer { folder.remove() }
        try folder.install(fixture: "mixed-content.ics")
        let before = folder.text
        let completed = await folder.call(plugin, "reminders.complete", ["title": "File taxes"])
        #expect(completed.status == SKILL_STATUS_OK, "\(completed.text)")
        let added = await folder.call(plugin, "reminders.add", ["title": "New one"])
        #expect(added.status == SKILL_STATUS_OK)
        let after = folder.text
        // Without the reminder just added…
        let uid = added.json?["uid"]?.stringValue ?? "?"
        let start = try #require(after.range(of: "BEGIN:VTODO\r\nUID:\(uid)"))
        let end = try #require(after.range(of: "END:VTODO\r\n", range: start.upperBound..<after.endIndex))
        var rest = after
        rest.removeSubrange(start.lowerBound..<end.upperBound)
        // …the file differs from the original only inside the completed VTODO…
        func split(_ text: String) throws -> (String, String, String) {
            let start = try #require(text.range(of: "BEGIN:VTODO\r\nUID:todo-taxes@example.com"))
            let end = try #require(text.range(of: "END:VTODO\r\n", range: start.upperBound..<text.endIndex))
            return (String(text[..<start.lowerBound]), String(text[start.lowerBound..<end.upperBound]),
                    String(text[end.upperBound...]))
        }
        let (beforeHead, beforeTodo, beforeTail) = try split(before)
        let (restHead, restTodo, restTail) = try split(rest)
        #expect(restHead == beforeHead)
        #expect(restTail == beforeTail)
        // …where only the status lines changed.
        let beforeLines = Set(beforeTodo.components(separatedBy: "\r\n"))
        let restLines = Set(restTodo.components(separatedBy: "\r\n"))
        #expect(beforeLines.subtracting(restLines) == ["DTSTAMP:20261101T080000Z", "STATUS:NEEDS-ACTION"])
        #expect(Set(restLines.subtracting(beforeLines).map { String($0.prefix { $0 != ":" }) })
            == ["DTSTAMP", "STATUS", "COMPLETED", "PERCENT-COMPLETE", "LAST-MODIFIED"])
        #expect(after.contains("BEGIN:X-VENDOR-THING\r\nX-VENDOR-DATA:opaque;payload,with:separators\r\n"))
        #expect(after.contains("  much longer than seventy-five octets\\, which RFC 5545 allows readers to\r\n"))
    }

    @Test func carelessFilesAreListedWithWarningsAndKeptWhenWritten() async throws {
        let folder = try CalendarFolder(configKey: "reminders_file", timezone: "Europe/Berlin")
        defer { folder.remove() }
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:a", "SUMMARY:Broken due", "DUE:tomorrow", "END:VTODO",
            "BEGIN:VTODO", "UID:b", "SUMMARY:Somewhere", "DUE;TZID=Atlantis/Capital:20261201T090000", "ORGANIZER;CN=Sixt SE",
            "END:VTOOD", "BEGIN:VTODO", "UID:c", "SUMMARY:Outlook", "DUE;TZID=\"W. Europe Standard Time\":20261202T090000",
            "END:VTODO", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
        try text.write(toFile: folder.file, atomically: true, encoding: .utf8)
        let listed = await folder.call(plugin, "reminders.list", ["status": "all"])
        #expect(listed.status == SKILL_STATUS_OK, "\(listed.text)")
        let reminders = listed.json?["reminders"]?.arrayValue ?? []
        #expect(reminders.map { $0["uid"]?.stringValue } == ["b", "c", "a"])
        // The unknown zone is read in the user's zone; the Windows name is Europe/Berlin.
        #expect(reminders.map { $0["due"]?.stringValue } == ["2026-12-01T09:00:00+01:00", "2026-12-02T09:00:00+01:00", nil])
        let warnings = listed.json?["warnings"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(warnings.count == 4, "\(warnings)")
        #expect(warnings.allSatisfy { $0.hasPrefix(folder.file + ": line ") })
        #expect(warnings.contains { $0.contains("line 6: skipped DUE value \"tomorrow\" is not a date") })
        #expect(warnings.contains { $0.contains("line 12: skipped \"ORGANIZER;CN=Sixt SE\"") })
        #expect(warnings.contains { $0.contains("line 13: END:VTOOD is read as the END of BEGIN:VTODO of line 8") })
        #expect(warnings.contains { $0.contains("line 11: \"Somewhere\" is due in time zone \"Atlantis/Capital\"") })
        let completed = await folder.call(plugin, "reminders.complete", ["uid": "b"])
        #expect(completed.status == SKILL_STATUS_OK, "\(completed.text)")
        let after = folder.text
        for line in ["DUE:tomorrow\r\n", "ORGANIZER;CN=Sixt SE\r\n", "END:VTOOD\r\n", "STATUS:COMPLETED\r\n"] {
            #expect(after.contains(line), "\(line)")
        }
    }
}
