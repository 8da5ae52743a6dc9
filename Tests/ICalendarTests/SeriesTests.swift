import ICalendar
import Testing

/// The components of one UID read as `recurring_ical_events` reads them (issue #37), case by case; the
/// corpus test (Tests/SkillSDKTests/CalendarCorpusTests.swift) checks the same against the reference on
/// the real-world files, these pin each rule down.
@Suite struct SeriesTests {
    /// `"<UTC start> <summary>"` of each occurrence in 2026–2027, and the warnings.
    func listing(_ components: String, floating: any ZoneRules = FixedOffsetZone.utc) throws -> ([String], [String]) {
        let document = try ICalendarDocument(parsing: "BEGIN:VCALENDAR\n\(components)\nEND:VCALENDAR\n")
        let zones = ICalZoneCatalog(document: document, floating: floating)
        var warnings: [String] = []
        let from = CivilDateTime(year: 2026, month: 1, day: 1).secondsSinceEpoch
        let to = CivilDateTime(year: 2028, month: 1, day: 1).secondsSinceEpoch
        let found = document.occurrences(in: from..<to, zones: zones, warnings: &warnings)
        return (found.map { "\(CivilDateTime(secondsSinceEpoch: $0.start)) \($0.event.summary ?? "")" }, warnings)
    }

    static let weekly = """
        BEGIN:VEVENT
        UID:s
        SEQUENCE:1
        SUMMARY:Standup
        DTSTART:20261201T090000Z
        DTEND:20261201T093000Z
        RRULE:FREQ=WEEKLY;COUNT=4
        END:VEVENT
        """

    @Test func anOverrideCarryingItsOwnRuleReplacesOneOccurrence() throws {
        let (found, _) = try listing(Self.weekly + """

            BEGIN:VEVENT
            UID:s
            SEQUENCE:1
            SUMMARY:Moved
            RECURRENCE-ID:20261208T090000Z
            DTSTART:20261208T110000Z
            RRULE:FREQ=DAILY
            END:VEVENT
            """)
        #expect(found == [
            "2026-12-01T09:00:00 Standup", "2026-12-08T11:00:00 Moved", "2026-12-15T09:00:00 Standup",
            "2026-12-22T09:00:00 Standup",
        ])
    }

    @Test func thisAndFutureMovesAndReshapesTheRest() throws {
        let (found, _) = try listing(Self.weekly + """

            BEGIN:VEVENT
            UID:s
            SUMMARY:Later standup
            RECURRENCE-ID;RANGE=THISANDFUTURE:20261215T090000Z
            DTSTART:20261215T100000Z
            DTEND:20261215T110000Z
            END:VEVENT
            """)
        #expect(found == [
            "2026-12-01T09:00:00 Standup", "2026-12-08T09:00:00 Standup", "2026-12-15T10:00:00 Later standup",
            "2026-12-22T10:00:00 Later standup",
        ])
    }

    @Test func exdatesNameOccurrencesByInstantWallClockOrDay() throws {
        let (found, _) = try listing("""
            BEGIN:VEVENT
            UID:b
            SUMMARY:Berlin
            DTSTART;TZID=Europe/Berlin:20261201T100000
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE:20261202T090000Z
            EXDATE:20261203T100000Z
            EXDATE;VALUE=DATE:20261204
            END:VEVENT
            """)
        // 2 December by its instant (09:00 UTC), 3 December by its wall clock written as UTC, 4 December by day.
        #expect(found == ["2026-12-01T09:00:00 Berlin", "2026-12-05T09:00:00 Berlin"])
    }

    @Test func cancelledInstancesAndSeriesAreLeftOut() throws {
        let (found, _) = try listing(Self.weekly + """

            BEGIN:VEVENT
            UID:s
            SUMMARY:Standup
            STATUS:CANCELLED
            RECURRENCE-ID:20261208T090000Z
            DTSTART:20261208T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            SUMMARY:Gone
            STATUS:CANCELLED
            DTSTART:20261201T120000Z
            RRULE:FREQ=DAILY;COUNT=3
            END:VEVENT
            """)
        #expect(found == ["2026-12-01T09:00:00 Standup", "2026-12-15T09:00:00 Standup", "2026-12-22T09:00:00 Standup"])
    }

    @Test func untilBeforeDTSTARTListsNothing() throws {
        let (found, warnings) = try listing("""
            BEGIN:VEVENT
            UID:u
            DTSTART;VALUE=DATE:20261005
            RRULE:FREQ=WEEKLY;UNTIL=20261004;BYDAY=MO
            END:VEVENT
            """)
        #expect(found.isEmpty)
        #expect(warnings.isEmpty)
    }

    @Test func ofOneUIDTheHighestSequenceIsTheEvent() throws {
        let (found, warnings) = try listing("""
            BEGIN:VEVENT
            UID:d
            SUMMARY:Old
            SEQUENCE:1
            DTSTART:20261201T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:d
            SUMMARY:New
            SEQUENCE:2
            DTSTART:20261202T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:d
            SUMMARY:Copy
            SEQUENCE:2
            DTSTART:20261203T090000Z
            END:VEVENT
            """)
        #expect(found == ["2026-12-02T09:00:00 New"])
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasPrefix("line 2: the event \"Old\" has the UID of the event of line 8, which is a later revision (SEQUENCE 2); only that one is listed") == true)
        #expect(warnings.last?.contains("the event \"Copy\" has the UID of the event of line 8, which comes first") == true)
    }

    @Test func rdatePeriodsLastTheirOwnLength() throws {
        let (found, _) = try listing("""
            BEGIN:VEVENT
            UID:p
            SUMMARY:Shift
            DTSTART:20261201T080000Z
            DURATION:PT1H
            RRULE:FREQ=DAILY;COUNT=2
            RDATE;VALUE=PERIOD:20261202T080000Z/PT4H,20261210T120000Z/20261210T170000Z
            END:VEVENT
            """)
        #expect(found == ["2026-12-01T08:00:00 Shift", "2026-12-02T08:00:00 Shift", "2026-12-10T12:00:00 Shift"])
        let document = try ICalendarDocument(parsing: "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:p\nDTSTART:20261201T080000Z\nDURATION:PT1H\nRRULE:FREQ=DAILY;COUNT=2\nRDATE;VALUE=PERIOD:20261202T080000Z/PT4H\nEND:VEVENT\nEND:VCALENDAR\n")
        let lengths = document.occurrences(in: 0..<4_000_000_000, zones: ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc))
            .map { $0.end - $0.start }
        #expect(lengths == [3600, 4 * 3600])
    }

    @Test func aStaleOverrideIsLeftOutAndAnyOtherListed() throws {
        let (found, _) = try listing(Self.weekly + """

            BEGIN:VEVENT
            UID:s
            SEQUENCE:0
            SUMMARY:Stale
            RECURRENCE-ID:20261209T090000Z
            DTSTART:20261209T100000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            END:VEVENT
            BEGIN:VEVENT
            UID:s
            SEQUENCE:0
            SUMMARY:Extra
            RECURRENCE-ID:20261210T090000Z
            DTSTART:20261210T100000Z
            END:VEVENT
            """)
        #expect(found == [
            "2026-12-01T09:00:00 Standup", "2026-12-08T09:00:00 Standup", "2026-12-10T10:00:00 Extra",
            "2026-12-15T09:00:00 Standup", "2026-12-22T09:00:00 Standup",
        ])
    }

    @Test func rulesJoinAndOddRulesAreReadAsOthersReadThem() throws {
        let (found, warnings) = try listing("""
            BEGIN:VEVENT
            UID:m
            SUMMARY:Two rules
            DTSTART:20261201T090000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            RRULE:FREQ=MONTHLY;COUNT=2
            END:VEVENT
            BEGIN:VEVENT
            UID:e
            SUMMARY:Empty rule
            DTSTART:20261202T090000Z
            RRULE:
            END:VEVENT
            BEGIN:VEVENT
            UID:n
            SUMMARY:Negative count
            DTSTART;VALUE=DATE:20261203
            RRULE:FREQ=WEEKLY;UNTIL=20261217;COUNT=-1;BYDAY=TH
            END:VEVENT
            """)
        #expect(found == [
            "2026-12-01T09:00:00 Two rules", "2026-12-02T09:00:00 Empty rule", "2026-12-03T00:00:00 Negative count",
            "2026-12-08T09:00:00 Two rules", "2026-12-10T00:00:00 Negative count", "2026-12-17T00:00:00 Negative count",
            "2027-01-01T09:00:00 Two rules",
        ])
        #expect(warnings.isEmpty)
        let rule = try RecurrenceRule(ContentLine("RRULE", value: "FREQ=WEEKLY;UNTIL=20261217;COUNT=-1;BYDAY=TH"))
        #expect(rule.unsupportedParts == ["COUNT=-1"])
        #expect(rule.count == nil)
    }

    @Test func aMisspeltRulePartListsTheEventOnceAndSaysSo() throws {
        let (found, warnings) = try listing("""
            BEGIN:VEVENT
            UID:t
            SUMMARY:Typo
            DTSTART:20261203T140000Z
            RRULE:FREQ=WEEKLY;BYDAY=TH;UNTL=20261223
            X-RRULE-NOTE:kept
            END:VEVENT
            """)
        #expect(found == ["2026-12-03T14:00:00 Typo"])
        #expect(warnings == ["line 6: skipped RRULE part UNTL is not an RRULE part; correct it (e.g. UNTIL, COUNT, BYDAY) or remove it"])
    }

    @Test func anOffsetBeyondADayMakesItsVTimezoneUnreadable() throws {
        let (found, warnings) = try listing("""
            BEGIN:VTIMEZONE
            TZID:Local time
            BEGIN:STANDARD
            DTSTART:18500101T000000
            TZOFFSETFROM:+5744
            TZOFFSETTO:+5744
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:o
            SUMMARY:Odd
            DTSTART;TZID=Local time:20261201T100000
            END:VEVENT
            """, floating: try #require(SystemZone("Europe/Prague")))
        #expect(found == ["2026-12-01T09:00:00 Odd"])
        #expect(warnings.first?.hasPrefix("line 6: skipped VTIMEZONE Local time of line 2: TZOFFSETFROM value \"+5744\" is not a UTC offset") == true)
        #expect(warnings.last?.contains("\"Odd\" is in time zone \"Local time\", which neither the file nor the system defines; its times are read in your zone (Europe/Prague)") == true)
    }

    @Test func anEndBeforeTheStartRunsBetweenThem() throws {
        let (found, _) = try listing("BEGIN:VEVENT\nUID:w\nSUMMARY:Swapped\nDTSTART:20261201T120000Z\nDTEND:20261201T100000Z\nEND:VEVENT")
        #expect(found == ["2026-12-01T10:00:00 Swapped"])
    }

    @Test func xWRTimezoneIsTheZoneOfFloatingTimesAndOfUTCRepetitions() throws {
        let (found, _) = try listing("""
            X-WR-TIMEZONE:Europe/Berlin
            BEGIN:VEVENT
            UID:f
            SUMMARY:Floating
            DTSTART:20261201T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:g
            SUMMARY:Weekly UTC
            DTSTART:20261019T080000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            END:VEVENT
            """)
        // 10:00 in Berlin is 09:00 UTC in December; 10:00 Berlin summer time on 19 October stays 10:00 Berlin
        // (09:00 UTC) after the change on 25 October.
        #expect(found == ["2026-10-19T08:00:00 Weekly UTC", "2026-10-26T09:00:00 Weekly UTC", "2026-12-01T09:00:00 Floating"])
    }

    @Test func zonesAsExportsNameThem() throws {
        let (found, warnings) = try listing("""
            BEGIN:VEVENT
            UID:w
            SUMMARY:Windows
            DTSTART;TZID="W. Europe Standard Time":20261201T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:v
            SUMMARY:Vendor
            DTSTART;TZID=/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires:20261201T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:p
            SUMMARY:Posix
            DTSTART;TZID=posix/Asia/Tokyo:20261201T100000
            END:VEVENT
            BEGIN:VTIMEZONE
            TZID:Europe/Paris
            BEGIN:DAYLIGHT
            DTSTART:20200329T020000
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:t
            SUMMARY:Truncated VTIMEZONE
            DTSTART;TZID=Europe/Paris:20261201T100000
            END:VEVENT
            """)
        #expect(found == [
            "2026-12-01T01:00:00 Posix", "2026-12-01T09:00:00 Windows", "2026-12-01T09:00:00 Truncated VTIMEZONE",
            "2026-12-01T13:00:00 Vendor",
        ])
        #expect(warnings.isEmpty)
    }
}
