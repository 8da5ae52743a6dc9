import ICalendar
import Testing

@Suite struct DocumentParsingTests {
    static let sample = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Test//EN\r
        X-WR-CALNAME:Work\r
        BEGIN:VEVENT\r
        UID:a@example.com\r
        DTSTAMP:20261101T120000Z\r
        DTSTART;TZID="Europe/Paris":20261201T100000\r
        DURATION:PT1H\r
        SUMMARY:Design review\\, part 2\r
        ATTENDEE;CN="Doe, Jane";ROLE=REQ-PARTICIPANT:mailto:jane@example.com\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT15M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VJOURNAL\r
        UID:j@example.com\r
        END:VJOURNAL\r
        END:VCALENDAR\r

        """

    @Test func readsComponentsPropertiesAndParameters() throws {
        let document = try ICalendarDocument(parsing: Self.sample)
        let calendar = document.calendar
        #expect(calendar.property("x-wr-calname")?.value == "Work")
        #expect(calendar.components.map(\.name) == ["VEVENT", "VJOURNAL"])
        let event = calendar.components[0]
        #expect(event.property("SUMMARY")?.text == "Design review, part 2")
        let attendee = try #require(event.property("ATTENDEE"))
        #expect(attendee.parameter("cn") == "Doe, Jane")
        #expect(attendee.value == "mailto:jane@example.com")
        #expect(event.property("DTSTART")?.parameter("TZID") == "Europe/Paris")
        #expect(event.components.first?.name == "VALARM")
    }

    @Test func rewriteKeepsEveryLineItDoesNotUnderstand() throws {
        let document = try ICalendarDocument(parsing: Self.sample)
        #expect(document.serialized() == Self.sample)
        #expect(try ICalendarDocument(parsing: document.serialized()) == document)
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\nSUMMARY\nEND:VCALENDAR\n", 2, 8, "has no ':'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VCALENDAR\n", 3, 5, "does not match BEGIN:VEVENT of line 2"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\n", 2, 1, "is never closed"),
        ("SUMMARY:x\n", 1, 1, "outside any component"),
        ("BEGIN:VCALENDAR\nX;A=\"open:1\n", 2, 5, "never closed"),
        ("BEGIN:VCALENDAR\n;X:1\nEND:VCALENDAR\n", 2, 1, "expected a property name"),
        ("BEGIN:VEVENT\nEND:VEVENT\n", 1, 1, "no VCALENDAR"),
        ("BEGIN:VCALENDAR\nEND:VEVENT\n", 2, 5, "does not match"),
    ])
    func malformedFilesNameLineColumnAndFix(text: String, line: Int, column: Int, message: String) {
        #expect {
            try ICalendarDocument(parsing: text)
        } throws: { error in
            guard let error = error as? ICalendarError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
                && !error.remedy.isEmpty && error.description.hasPrefix("line \(line):\(column): ")
        }
    }

    @Test func badValuesNameTheirLine() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:2026-12-01\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        #expect(throws: ICalendarError.self) { try document.events() }
        do {
            _ = try document.events()
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("not a date"))
            #expect(error.remedy.contains("20261201"))
        }
    }

    @Test func newPropertiesAreEscapedQuotedAndFolded() throws {
        var document = ICalendarDocument.empty()
        var event = ICalComponent("VEVENT")
        event.set(ContentLine("SUMMARY", value: ICalText.escape("Lunch; with Ann, Bo")))
        event.set(ContentLine("LOCATION", [.init("ALTREP", ["http://example.com/a;b"])], value: "Café"))
        event.set(ContentLine("DESCRIPTION", value: ICalText.escape(String(repeating: "日本語 ", count: 30))))
        document.calendar.components.append(event)
        let text = document.serialized()
        #expect(text.contains("SUMMARY:Lunch\\; with Ann\\, Bo\r\n"))
        #expect(text.contains("LOCATION;ALTREP=\"http://example.com/a;b\":Café\r\n"))
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let reread = try ICalendarDocument(parsing: text).calendar.components[0]
        #expect(reread.property("DESCRIPTION")?.text == String(repeating: "日本語 ", count: 30))
        #expect(reread.property("LOCATION")?.parameter("ALTREP") == "http://example.com/a;b")
    }
}
