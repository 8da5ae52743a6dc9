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

    /// A line or structure that cannot be read is skipped and named (line, column, what, why, fix); the
    /// rest of the file is read.
    @Test(arguments: [
        ("BEGIN:VCALENDAR\nSUMMARY\nEND:VCALENDAR\n", 2, 8, "skipped \"SUMMARY\": property SUMMARY has no ':'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VCALENDAR\n", 2, 1, "BEGIN:VEVENT is never closed; it ends at END:VCALENDAR of line 3"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\n", 2, 1, "BEGIN:VEVENT is never closed; read up to the end of the file"),
        ("BEGIN:VCALENDAR\nX;A=\"open:1\n", 2, 5, "opens a quote that is never closed"),
        ("BEGIN:VCALENDAR\n;X:1\nEND:VCALENDAR\n", 2, 1, "expected a property name"),
        ("BEGIN:VEVENT\nEND:VEVENT\n", 1, 1, "the file holds no VCALENDAR"),
        ("BEGIN:VCALENDAR\nEND:VEVENT\n", 2, 5, "END:VEVENT is read as the END of BEGIN:VCALENDAR of line 1"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nX-COMMENT:cached\n", 3, 1, "property X-COMMENT is outside any component"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nEND:VCALENDAR\n", 3, 1, "END:VCALENDAR closes no open component"),
        ("BEGIN:VCALENDAR\nBEGIN:\nEND:VCALENDAR\n", 2, 7, "BEGIN without a component name"),
    ])
    func malformedPartsAreSkippedAndNamed(text: String, line: Int, column: Int, message: String) throws {
        let document = try ICalendarDocument(parsing: text)
        let problem = try #require(document.skipped.first { $0.line == line && $0.message.contains(message) }, "\(document.skipped)")
        #expect(problem.column == column)
        #expect(!problem.remedy.isEmpty)
        #expect(problem.description.hasPrefix("line \(line):\(column): "))
        // What was skipped is written back as it was.
        for physical in text.split(separator: "\n") {
            #expect(document.serialized().contains(physical + "\r\n"), "\(physical) is lost")
        }
    }

    /// Only text in which no component can be read is refused, with a line and a fix.
    @Test(arguments: ["SUMMARY:x\n", "this is not a calendar\n", "END:VCALENDAR\n", "\n\n"])
    func textWithNoComponentIsRefused(text: String) {
        #expect {
            try ICalendarDocument(parsing: text)
        } throws: { error in
            guard let error = error as? ICalendarError else { return false }
            return error.line >= 1 && !error.remedy.isEmpty && error.remedy.contains("BEGIN:VCALENDAR")
        }
    }

    /// A file as careless clients write it reads as other readers read it, and is written back byte for byte.
    @Test func carelessFileReadsAndRewritesUnchanged() throws {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "REFRESH - INTERVAL; VALUE = DURATION:PT48H", "begin:vevent", "UID:a",
            "DTSTART:20261201T100000Z", "ORGANIZER;CN=Sixt SE", "X-APPLE-STRUCTURED-LOCATION;VALUE=URI:geo:1,2",
            "X-APPLE-RADIUS=49.91;X-TITLE=Berlin", "SUMMARY=testevent", "SUMMARY:Dentist", "end:vevent",
            "BEGIN:VTODO", "UID:t", "END:VTOOD", "END:VCALENDARD", "X-COMMENT:Cached from 2022-02-20",
        ].map { $0 + "\r\n" }.joined()
        let document = try ICalendarDocument(parsing: text)
        #expect(document.serialized() == text)
        #expect(document.calendar.property("REFRESH-INTERVAL")?.parameter("VALUE") == "DURATION")
        let event = try #require(document.events().first)
        #expect(event.summary == "Dentist")
        #expect(event.component.property("ORGANIZER") == nil)
        #expect(document.todos().map(\.uid) == ["t"])
        #expect(document.skipped.map(\.line) == [7, 9, 10, 15, 16, 17])
        // A change keeps every line it does not touch.
        var changed = document
        changed.calendar.components.append(ICalComponent("VJOURNAL", properties: [ContentLine("UID", value: "j")]))
        let rewritten = changed.serialized()
        #expect(rewritten.hasSuffix("END:VTOOD\r\nBEGIN:VJOURNAL\r\nUID:j\r\nEND:VJOURNAL\r\nEND:VCALENDARD\r\nX-COMMENT:Cached from 2022-02-20\r\n"))
        #expect(try ICalendarDocument(parsing: rewritten).events().map(\.uid) == ["a"])
    }

    @Test func badValuesNameTheirLine() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:2026-12-01\nEND:VEVENT\nBEGIN:VEVENT\nDTSTART:20261201\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        var skipped: [ICalendarError] = []
        let events = document.events(skipped: &skipped)
        #expect(events.map(\.start.local.dateText) == ["2026-12-01"])
        #expect(skipped.count == 1)
        #expect(skipped.first?.line == 3)
        #expect(skipped.first?.message.contains("skipped the event of line 2: DTSTART value \"2026-12-01\" is not a date") == true)
        #expect(skipped.first?.remedy.contains("20261201") == true)
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
