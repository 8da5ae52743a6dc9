import ICalendar
import Testing

@Suite struct RecurrenceTests {
    static let utc = FixedOffsetZone.utc

    func occurrences(_ body: String, from: String = "20260101T000000Z", to: String = "20280101T000000Z",
                     floating: any ZoneRules = FixedOffsetZone.utc) throws -> [String] {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\n\(body)\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        let zones = ICalZoneCatalog(document: document, floating: floating)
        let range = try instant(from)..<instant(to)
        return document.occurrences(in: range, zones: zones).map { "\($0.localStart)" }
    }

    func instant(_ text: String) throws -> Int64 {
        try ICalDateValue(ContentLine("X", value: text)).local.secondsSinceEpoch
    }

    @Test func dailyWithIntervalAndCount() throws {
        let result = try occurrences("DTSTART:20261201T090000Z\nRRULE:FREQ=DAILY;INTERVAL=2;COUNT=3")
        #expect(result == ["2026-12-01T09:00:00", "2026-12-03T09:00:00", "2026-12-05T09:00:00"])
    }

    @Test func weeklyOnSeveralDaysUntil() throws {
        // 2026-12-01 is a Tuesday.
        let result = try occurrences("DTSTART:20261201T090000Z\nRRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20261210T090000Z")
        #expect(result == ["2026-12-01T09:00:00", "2026-12-03T09:00:00", "2026-12-08T09:00:00", "2026-12-10T09:00:00"])
    }

    @Test func monthlyOnTheLastFridayAndOnADayNotInEveryMonth() throws {
        let fridays = try occurrences("DTSTART:20260130T100000Z\nRRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=3")
        #expect(fridays == ["2026-01-30T10:00:00", "2026-02-27T10:00:00", "2026-03-27T10:00:00"])
        let thirtyFirsts = try occurrences("DTSTART:20260131T100000Z\nRRULE:FREQ=MONTHLY;COUNT=3")
        #expect(thirtyFirsts == ["2026-01-31T10:00:00", "2026-03-31T10:00:00", "2026-05-31T10:00:00"])
    }

    @Test func exdateRemovesAnOccurrenceAndRangeLimitsTheRest() throws {
        let result = try occurrences(
            "DTSTART:20261201T090000Z\nRRULE:FREQ=DAILY\nEXDATE:20261202T090000Z", from: "20261201T000000Z",
            to: "20261204T000000Z")
        #expect(result == ["2026-12-01T09:00:00", "2026-12-03T09:00:00"])
    }

    @Test func weeklyInAZoneKeepsTheWallClockAcrossDaylightSaving() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:w
            DTSTART;TZID=Europe/Berlin:20261019T090000
            RRULE:FREQ=WEEKLY;COUNT=3
            END:VEVENT
            END:VCALENDAR
            """
        let document = try ICalendarDocument(parsing: text)
        let zones = ICalZoneCatalog(document: document, floating: Self.utc)
        let found = document.occurrences(in: 0..<4_000_000_000, zones: zones)
        // CEST (+2) until 25 October, CET (+1) after.
        #expect(found.map { CivilDateTime(secondsSinceEpoch: $0.start).description } == [
            "2026-10-19T07:00:00", "2026-10-26T08:00:00", "2026-11-02T08:00:00",
        ])
        #expect(found.allSatisfy { $0.zone == "Europe/Berlin" })
    }

    @Test func allDayEventsLastTheirDays() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:d\nDTSTART;VALUE=DATE:20261224\nDTEND;VALUE=DATE:20261226\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone(identifier: "X", seconds: 3600))
        let found = try #require(document.occurrences(in: 0..<4_000_000_000, zones: zones).first)
        #expect(found.event.start.isDate)
        #expect(found.end - found.start == 2 * 86_400)
        #expect(CivilDateTime(secondsSinceEpoch: found.start).description == "2026-12-23T23:00:00")
    }

    @Test func recurrenceIDOverridesOneOccurrence() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:r
            DTSTART:20261201T090000Z
            RRULE:FREQ=DAILY;COUNT=3
            SUMMARY:Standup
            END:VEVENT
            BEGIN:VEVENT
            UID:r
            RECURRENCE-ID:20261202T090000Z
            DTSTART:20261202T110000Z
            SUMMARY:Standup (moved)
            END:VEVENT
            END:VCALENDAR
            """
        let document = try ICalendarDocument(parsing: text)
        let zones = ICalZoneCatalog(document: document, floating: Self.utc)
        let found = document.occurrences(in: 0..<4_000_000_000, zones: zones)
        #expect(found.map { "\($0.localStart) \($0.event.summary ?? "")" } == [
            "2026-12-01T09:00:00 Standup", "2026-12-02T11:00:00 Standup (moved)", "2026-12-03T09:00:00 Standup",
        ])
    }

    @Test func unreadableRuleListsTheEventOnceAndSaysSo() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nDTSTART:20261201T090000Z\nRRULE:FREQ=FORTNIGHTLY\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        var warnings: [String] = []
        let found = document.occurrences(
            in: 0..<4_000_000_000, zones: ICalZoneCatalog(document: document, floating: Self.utc), warnings: &warnings)
        #expect(found.map { "\($0.localStart)" } == ["2026-12-01T09:00:00"])
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("line 5: skipped RRULE FREQ=FORTNIGHTLY is not a frequency; use DAILY, WEEKLY") == true)
    }

    @Test func durationsReadAndWrite() {
        #expect(ICalDuration("PT1H30M") == ICalDuration(seconds: 5400))
        #expect(ICalDuration("P1W") == ICalDuration(days: 7))
        #expect(ICalDuration("-PT15M") == ICalDuration(seconds: -900))
        #expect(ICalDuration("P1DT2H")?.valueText == "P1DT2H")
        #expect(ICalDuration("1H") == nil)
        #expect(ICalDuration("PT") == nil)
    }
}
