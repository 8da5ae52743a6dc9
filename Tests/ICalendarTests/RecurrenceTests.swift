import Foundation
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

/// RRULE expansion against python-dateutil's (the engine `recurring_ical_events` expands with), rule by
/// rule: the first 40 occurrences before 2100 from the same DTSTART, as floating times.
@Suite struct RuleExpansionInteropTests {
    static let cases: [(start: String, rules: [String])] = [
        ("20261201T090000", [
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,2,-2",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=MO",
            "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SA;WKST=TH;COUNT=12", "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30;COUNT=20",
            "FREQ=WEEKLY;BYDAY=TU;BYHOUR=8,12", "FREQ=YEARLY;BYDAY=20MO", "FREQ=YEARLY;BYDAY=-1SU",
            "FREQ=YEARLY;BYMONTHDAY=1,-1", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU",
            "FREQ=MONTHLY;BYMONTHDAY=31", "FREQ=MONTHLY;BYDAY=2TU,-1FR;COUNT=15", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
            "FREQ=DAILY;INTERVAL=3;BYMONTH=1,7", "FREQ=YEARLY;BYMONTH=6;BYDAY=MO,FR;BYSETPOS=3",
            "FREQ=MONTHLY;INTERVAL=2;BYSETPOS=-1;BYDAY=SA,SU;UNTIL=20290101T000000",
        ]),
        ("20240229T235959", ["FREQ=YEARLY", "FREQ=MONTHLY;COUNT=30", "FREQ=WEEKLY;BYDAY=TH,FR,SA;WKST=SA;INTERVAL=2"]),
    ]

    @Test(arguments: 0..<2)
    func expansionsMatchDateutil(group: Int) throws {
        let (start, rules) = Self.cases[group]
        let output = try PythonPeer.run(try PythonPeer.python(), [PythonPeer.script, "rrule", start] + rules)
        let expected = try JSONDecoder().decode([[String]].self, from: Data(output.utf8))
        let first = try ICalDateValue(ContentLine("DTSTART", value: start)).local
        for (rule, theirs) in zip(rules, expected) {
            let parsed = try RecurrenceRule(ContentLine("RRULE", value: rule))
            let until = parsed.until.flatMap { try? ICalDateValue(ContentLine("UNTIL", value: $0)).local }
            let ours = parsed.expand(
                from: first, through: CivilDateTime(year: 2100, month: 1, day: 1), isPastUntil: { $0 > until! })
                .prefix(40).map { $0.description.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "") }
            #expect(!theirs.isEmpty, "\(rule)")
            #expect(Array(ours) == theirs, "\(rule)")
        }
    }
}
