import ICalendar
import Testing

@Suite struct TimeZoneTests {
    /// A zone named like Outlook names them, so only the VTIMEZONE can say what it is.
    static let outlookZone = """
        BEGIN:VCALENDAR
        BEGIN:VTIMEZONE
        TZID:W. Europe Standard Time
        BEGIN:STANDARD
        DTSTART:16010101T030000
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010101T020000
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        UID:o
        DTSTART;TZID=W. Europe Standard Time:20260715T100000
        DTEND;TZID=W. Europe Standard Time:20260715T110000
        END:VEVENT
        BEGIN:VEVENT
        UID:p
        DTSTART;TZID=W. Europe Standard Time:20261215T100000
        END:VEVENT
        END:VCALENDAR
        """

    @Test func timesInTheFilesOwnVTimezone() throws {
        let document = try ICalendarDocument(parsing: Self.outlookZone)
        let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
        let found = document.occurrences(in: 0..<4_000_000_000, zones: zones)
        #expect(found.map { CivilDateTime(secondsSinceEpoch: $0.start).description } == [
            "2026-07-15T08:00:00", "2026-12-15T09:00:00",
        ])
        #expect(found[0].end - found[0].start == 3600)
        #expect(found[0].zone == "W. Europe Standard Time")
    }

    @Test func daylightSavingEdgesFollowTheRule() throws {
        let document = try ICalendarDocument(parsing: Self.outlookZone)
        let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
        let zone = try #require(zones.rules(for: "W. Europe Standard Time"))
        // 2026: DST from 29 March 01:00 UTC to 25 October 01:00 UTC.
        let start = CivilDateTime(year: 2026, month: 3, day: 29, hour: 1).secondsSinceEpoch
        #expect(zone.offset(atUTC: start - 1) == 3600)
        #expect(zone.offset(atUTC: start) == 7200)
        let end = CivilDateTime(year: 2026, month: 10, day: 25, hour: 1).secondsSinceEpoch
        #expect(zone.offset(atUTC: end - 1) == 7200)
        #expect(zone.offset(atUTC: end) == 3600)
        // 02:30 on 25 October happens twice: the first one (summer time) is meant.
        #expect(zone.utcSeconds(forLocal: CivilDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30))
            == end - 1800)
    }

    @Test func ianaZonesWithoutAVTimezoneUseTheSystemDatabase() throws {
        let zone = try #require(SystemZone("America/New_York"))
        let local = CivilDateTime(year: 2026, month: 7, day: 4, hour: 12)
        #expect(zone.utcSeconds(forLocal: local) == local.secondsSinceEpoch + 4 * 3600)
        #expect(SystemZone("/mozilla.org/20050126_1/America/New_York")?.identifier == "America/New_York")
        #expect(SystemZone("Nowhere/Special") == nil)
    }

    @Test func unknownZoneIsReadInTheUsersZoneAndNamedOnTheEvent() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Launch\nDTSTART;TZID=Mars/Olympus:20261201T100000\nEND:VEVENT\nEND:VCALENDAR\n"
        let document = try ICalendarDocument(parsing: text)
        let tokyo = try #require(SystemZone("Asia/Tokyo"))
        let zones = ICalZoneCatalog(document: document, floating: tokyo)
        var warnings: [String] = []
        let found = document.occurrences(in: 0..<4_000_000_000, zones: zones, warnings: &warnings)
        #expect(found.map(\.start) == [CivilDateTime(year: 2026, month: 12, day: 1, hour: 1).secondsSinceEpoch])
        #expect(warnings == [
            "line 4: \"Launch\" is in time zone \"Mars/Olympus\", which neither the file nor the system defines; its times "
                + "are read in your zone (Asia/Tokyo); add a VTIMEZONE for it or use an IANA name such as Europe/Paris"
        ])
    }

    @Test func civilArithmetic() {
        let date = CivilDateTime(year: 2024, month: 2, day: 28, hour: 23)
        #expect(date.adding(days: 1).description == "2024-02-29T23:00:00")
        #expect(date.adding(days: 2).description == "2024-03-01T23:00:00")
        #expect(CivilDateTime(year: 2026, month: 11, day: 30).weekday == 0)  // a Monday
        #expect(CivilDateTime(secondsSinceEpoch: -1).description == "1969-12-31T23:59:59")
        #expect(CivilDateTime(secondsSinceEpoch: date.secondsSinceEpoch) == date)
    }
}
