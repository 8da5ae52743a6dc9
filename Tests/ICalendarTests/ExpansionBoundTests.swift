import Foundation
@testable import ICalendar
import Testing

/// Listing a range costs what the range asks for, not what the event's age asks for (issue #16: a weekly
/// event from the year 1013 took 40 s to list two months of 2026), and the results stay exact.
@Suite struct ExpansionBoundTests {
    /// 2026-01-01 … 2026-03-01 UTC, the fuzz target's window.
    static let window: Range<Int64> = 1_767_225_600..<1_772_323_200

    func rule(_ text: String) throws -> RecurrenceRule {
        try RecurrenceRule(ContentLine("RRULE", value: text))
    }

    func document(_ events: String) throws -> (ICalendarDocument, ICalZoneCatalog) {
        let document = try ICalendarDocument(parsing: "BEGIN:VCALENDAR\nVERSION:2.0\n\(events)END:VCALENDAR\n")
        return (document, ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc))
    }

    func event(_ uid: String, start: String, end: String, rule: String) -> String {
        """
        BEGIN:VEVENT
        UID:\(uid)
        SUMMARY:\(uid)
        DTSTART;TZID=Europe/Berlin:\(start)
        DTEND;TZID=Europe/Berlin:\(end)
        RRULE:\(rule)
        END:VEVENT

        """
    }

    @Test(arguments: [
        "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3;BYMONTH=2,3", "FREQ=DAILY;BYDAY=MO;BYMONTHDAY=1,13",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", "FREQ=WEEKLY;BYMONTH=1", "FREQ=MONTHLY;BYMONTHDAY=-1",
        "FREQ=MONTHLY;INTERVAL=5;BYDAY=2TU", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;INTERVAL=7",
        "FREQ=DAILY;COUNT=48000", "FREQ=WEEKLY;INTERVAL=2;COUNT=3500", "FREQ=MONTHLY;COUNT=1630",
        "FREQ=YEARLY;INTERVAL=3;COUNT=46", "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=14000", "FREQ=DAILY;COUNT=20",
    ])
    func startingNearTheWindowGivesTheSameOccurrencesAsStartingAtDTSTART(text: String) throws {
        let rule = try rule(text)
        let limit = CivilDateTime(year: 2030, month: 1, day: 1)
        // The 31st is not in every month (a COUNT is then counted by walking), the 14th is.
        for start in [
            CivilDateTime(year: 1890, month: 3, day: 31, hour: 9, minute: 30),
            CivilDateTime(year: 1890, month: 3, day: 14, hour: 9, minute: 30),
        ] {
            try expectSameFromAnyStart(rule, text, start: start, limit: limit)
        }
    }

    func expectSameFromAnyStart(_ rule: RecurrenceRule, _ text: String, start: CivilDateTime, limit: CivilDateTime) throws {
        for notBefore in [
            CivilDateTime(year: 2026, month: 1, day: 10, hour: 12), CivilDateTime(year: 1890, month: 4, day: 2),
            CivilDateTime(year: 2028, month: 2, day: 29, hour: 9, minute: 30), start,
        ] {
            let whole = rule.expand(from: start, through: limit).filter { $0 >= notBefore }
            let near = rule.expand(from: start, through: limit, notBefore: notBefore)
            #expect(near.filter { $0 >= notBefore } == whole, "\(text) from \(notBefore)")
            // The expansion starts about one period before notBefore, not at 1890.
            if rule.count == nil || rule.hasOneOccurrencePerPeriod(from: start) {
                #expect(near.count - whole.count <= 62, "\(text) from \(notBefore): \(near.count - whole.count) extra")
            }
        }
    }

    @Test func aCountedRuleStillCountsFromDTSTART() throws {
        let rule = try rule("FREQ=DAILY;COUNT=10")
        let start = CivilDateTime(year: 2026, month: 1, day: 1, hour: 9)
        let notBefore = CivilDateTime(year: 2026, month: 1, day: 5)
        let found = rule.expand(from: start, through: CivilDateTime(year: 2027, month: 1, day: 1), notBefore: notBefore)
        // The 5th to the 10th: the skipped days count towards COUNT.
        #expect(found.filter { $0 >= notBefore }.map(\.day) == [5, 6, 7, 8, 9, 10])
        let late = rule.expand(
            from: start, through: CivilDateTime(year: 2027, month: 1, day: 1),
            notBefore: CivilDateTime(year: 2026, month: 6, day: 1))
        #expect(late.filter { $0.month >= 6 }.isEmpty)
    }

    @Test func aShortEventFromLongAgoListsAsTheSameEventStartedRecently() throws {
        let (old, oldZones) = try document(
            event("old", start: "18900401T100000", end: "18900401T110000", rule: "FREQ=WEEKLY;BYDAY=TU,TH"))
        // 2025-12-30 is a Tuesday, like 1890-04-01.
        let (recent, recentZones) = try document(
            event("recent", start: "20251230T100000", end: "20251230T110000", rule: "FREQ=WEEKLY;BYDAY=TU,TH"))
        var warnings: [String] = []
        let listed = old.occurrences(in: Self.window, zones: oldZones, warnings: &warnings)
        let expected = recent.occurrences(in: Self.window, zones: recentZones)
        #expect(warnings.isEmpty)
        #expect(listed.count == 17)
        #expect(listed.map(\.start) == expected.map(\.start))
        #expect(listed.map(\.end) == expected.map(\.end))
    }

    @Test(arguments: ["FREQ=WEEKLY", "FREQ=WEEKLY;COUNT=7000", "FREQ=DAILY;INTERVAL=5"])
    func anEventLastingPastThousandsOfItsRepetitionsListsTheLatestWithAWarning(rule: String) throws {
        let (document, zones) = try document(
            event("endless", start: "19000102T100000", end: "20261006T103000", rule: rule))
        let all = document.events()[0].occurrences(overlapping: Self.window, zones: zones)
        #expect(all.count > 2 * ICalEvent.carriedOccurrenceLimit)
        var warnings: [String] = []
        let listed = document.occurrences(in: Self.window, zones: zones, warnings: &warnings)
        // The latest occurrences, exactly as the whole expansion has them.
        #expect(listed.count >= ICalEvent.carriedOccurrenceLimit)
        #expect(listed.count <= ICalEvent.carriedOccurrenceLimit + 60)
        #expect(listed.map(\.start) == all.suffix(listed.count).map(\.start))
        #expect(listed.map(\.end) == all.suffix(listed.count).map(\.end))
        #expect(warnings.count == 1)
        let warning = warnings.first ?? ""
        #expect(warning.contains("line 3"), "\(warning)")
        #expect(warning.contains("\"endless\""), "\(warning)")
        #expect(warning.contains("DTSTART, DTEND or DURATION"), "\(warning)")
        #expect(!warning.contains("\n"))
    }

    @Test func systemZoneOffsetsMatchTheDatabaseAcrossTransitions() throws {
        for identifier in ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
                           "Africa/Monrovia", "UTC"] {
            let database = try #require(TimeZone(identifier: identifier))
            var instants: [Int64] = []
            var date = Date(timeIntervalSince1970: -3_000_000_000)
            while let next = database.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 2.2e9 {
                let at = Int64(next.timeIntervalSince1970)
                instants += [at - 86_400, at - 1, at, at + 1]
                date = next
            }
            instants += stride(from: Int64(-4_000_000_000), to: 4_000_000_000, by: 9_999_991)
            // Ascending, descending and shuffled, each on a fresh zone (its cache starts empty).
            var generator = SplitMix(seed: 16)
            for order in [instants.sorted(), Array(instants.sorted().reversed()), instants.shuffled(using: &generator)] {
                let zone = try #require(SystemZone(identifier))
                let wrong = order.filter {
                    zone.offset(atUTC: $0) != database.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0)))
                }
                #expect(wrong.isEmpty, "\(identifier): \(wrong.prefix(3))")
            }
        }
    }
}

private typealias SplitMix = SeededGenerator

/// A COUNT rule with BY parts has to be counted from DTSTART: it is walked at most
/// ``RecurrenceRule/countedWalkLimit`` periods, so a range centuries later costs no more.
@Suite struct CountedExpansionBoundTests {
    static let window = ExpansionBoundTests.window

    func listing(_ rule: String, start: String) throws -> ([ICalOccurrence], [String]) {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:c\nSUMMARY:Counted\nDTSTART:\(start)\n"
            + "DURATION:PT1H\nRRULE:\(rule)\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
        var warnings: [String] = []
        return (document.occurrences(in: Self.window, zones: zones, warnings: &warnings), warnings)
    }

    @Test func aCountReachingTheRangeFromCenturiesAgoIsNotListedAndSaysSo() throws {
        let (listed, warnings) = try listing("FREQ=DAILY;BYDAY=MO;COUNT=1000000", start: "10130503T100000Z")
        #expect(listed.isEmpty)
        #expect(warnings.count == 1)
        let warning = warnings.first ?? ""
        #expect(warning.hasPrefix("line 2: \"Counted\" repeats with COUNT=1000000"), "\(warning)")
        #expect(warning.contains("move DTSTART closer or use UNTIL"), "\(warning)")
    }

    @Test func aCountThatEndsLongBeforeTheRangeIsExact() throws {
        let (listed, warnings) = try listing("FREQ=DAILY;BYDAY=MO;COUNT=10", start: "10130503T100000Z")
        #expect(listed.isEmpty)
        #expect(warnings.isEmpty)
    }

    @Test func aCountFromWithinTheWalkIsListedExactly() throws {
        // Mondays from 2000-01-03: the 1,361st is 2026-01-26 (1,360 weeks later), the last one in COUNT.
        let (listed, warnings) = try listing("FREQ=DAILY;BYDAY=MO;COUNT=1361", start: "20000103T100000Z")
        #expect(warnings.isEmpty)
        #expect(listed.map { CivilDateTime(secondsSinceEpoch: $0.start).dateText } == [
            "2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26",
        ])
    }
}
