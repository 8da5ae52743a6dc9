@testable import ICalendar
import Testing

/// A VTIMEZONE's offsets come from a window of each observance's rule just before the instant asked, not
/// from its expansion since DTSTART (issue #16: a monthly DAYLIGHT rule from the year 1013 made one listing
/// take 3 s under AddressSanitizer; the replay tests time those inputs), and they are exactly what the
/// whole expansion says.
@Suite struct VTimeZoneOnsetTests {
    /// One STANDARD or DAYLIGHT block.
    struct Observance: CustomStringConvertible {
        var kind = "DAYLIGHT"
        var start: String
        var from: Int
        var to: Int
        var rule: String

        var description: String { "\(kind) \(start) \(rule)" }
    }

    /// Zones whose rules test the window: an old dense rule, a sparse one, an ended one, a COUNT with BY
    /// parts, an INTERVAL, and a yearly rule that takes its day from DTSTART.
    static let zones: [[Observance]] = [
        [
            Observance(kind: "STANDARD", start: "19701025T030000", from: 7200, to: 3600,
                rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
            Observance(start: "10130503T020000", from: 3600, to: 7200, rule: "FREQ=MONTHLY;BYDAY=1TH"),
        ],
        [
            // The fifth Sunday of February: only in some leap years, decades apart.
            Observance(start: "16010101T020000", from: 3600, to: 7200, rule: "FREQ=YEARLY;BYMONTH=2;BYDAY=5SU"),
            Observance(kind: "STANDARD", start: "16010101T030000", from: 7200, to: 3600,
                rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
        ],
        [
            Observance(start: "16010101T020000", from: -18000, to: -14400,
                rule: "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;UNTIL=19860101T000000"),
            Observance(start: "19870405T020000", from: -18000, to: -14400, rule: "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"),
            Observance(kind: "STANDARD", start: "16010101T020000", from: -14400, to: -18000,
                rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
        ],
        [
            Observance(start: "19670430T020000", from: -18000, to: -14400,
                rule: "FREQ=YEARLY;BYMONTH=4;BYDAY=-1SU;COUNT=40"),
            Observance(kind: "STANDARD", start: "19671029T020000", from: -14400, to: -18000,
                rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"),
        ],
        [
            Observance(start: "19810329T020000", from: 3600, to: 7200, rule: "FREQ=YEARLY;BYMONTH=3"),
            Observance(kind: "STANDARD", start: "19811025T030000", from: 7200, to: 3600,
                rule: "FREQ=YEARLY;INTERVAL=3;BYMONTH=10;BYDAY=-1SU"),
        ],
        [
            // A rule with no occurrence at all, a daily one, and one that ended.
            Observance(start: "16010101T020000", from: 3600, to: 7200, rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"),
            Observance(kind: "STANDARD", start: "19900101T040000", from: 7200, to: 3600, rule: "FREQ=DAILY;INTERVAL=9"),
            Observance(start: "19000305T020000", from: 3600, to: 7200,
                rule: "FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=19991231T235959Z"),
        ],
    ]

    func calendar(_ observances: [Observance]) -> String {
        let blocks = observances.map { observance in
            """
            BEGIN:\(observance.kind)
            DTSTART:\(observance.start)
            TZOFFSETFROM:\(Self.offsetText(observance.from))
            TZOFFSETTO:\(Self.offsetText(observance.to))
            RRULE:\(observance.rule)
            END:\(observance.kind)

            """
        }
        return "BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:Test/Window\n\(blocks.joined())END:VTIMEZONE\nEND:VCALENDAR\n"
    }

    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        let hours = magnitude / 3600, minutes = magnitude % 3600 / 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours)" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// Every onset (UTC, offset, observance index) from DTSTART through 2100, the whole expansion.
    func allOnsets(_ observances: [Observance]) throws -> [(utc: Int64, offset: Int, index: Int)] {
        var result: [(utc: Int64, offset: Int, index: Int)] = []
        for (index, observance) in observances.enumerated() {
            let start = try ICalDateValue(text: observance.start, tzid: nil, property: ContentLine("DTSTART", value: ""))
                .local
            let rule = try RecurrenceRule(ContentLine("RRULE", value: observance.rule))
            let until = rule.until.flatMap { UntilValue(text: $0) }
            let locals = [start] + rule.expand(from: start, through: CivilDateTime(year: 2100, month: 1, day: 1)) {
                candidate in
                guard let until else { return false }
                return until.isUTC
                    ? candidate.secondsSinceEpoch - Int64(observance.from) > until.local.secondsSinceEpoch
                    : candidate > until.local
            }
            #expect(locals.count < RecurrenceRule.occurrenceLimit, "\(observance)")
            result += locals.map { ($0.secondsSinceEpoch - Int64(observance.from), observance.to, index) }
        }
        return result
    }

    /// The offset the whole expansion gives: the latest onset at or before `seconds`, the first
    /// observance's on a tie, else the earliest observance's TZOFFSETFROM. `onsets` are sorted by time,
    /// and by observance from the last to the first at one time.
    func expectedOffset(_ onsets: [(utc: Int64, offset: Int, index: Int)], _ observances: [Observance], at seconds: Int64)
        -> Int
    {
        var (low, high) = (0, onsets.count)
        while low < high {
            let middle = (low + high) / 2
            if onsets[middle].utc <= seconds { low = middle + 1 } else { high = middle }
        }
        if low > 0 { return onsets[low - 1].offset }
        let earliest = observances.indices.min { observances[$0].start < observances[$1].start }!
        return observances[earliest].from
    }

    @Test(arguments: zones.indices)
    func offsetsAgreeWithTheWholeExpansion(zone: Int) throws {
        let observances = Self.zones[zone]
        let document = try ICalendarDocument(parsing: calendar(observances))
        let catalog = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
        let rules = try #require(catalog.rules(for: "Test/Window"))
        let onsets = try allOnsets(observances).sorted { left, right in
            left.utc != right.utc ? left.utc < right.utc : left.index > right.index
        }
        // Every onset from 1900 on, a second either side, and an instant every 9 days from 1900 to 2060.
        var instants: [Int64] = []
        for onset in onsets where onset.utc >= -2_208_988_800 && onset.utc < 2_840_140_800 {
            instants += [onset.utc - 1, onset.utc, onset.utc + 1]
        }
        instants += stride(from: Int64(-2_208_988_800), to: 2_840_140_800, by: 9 * 86_400)
        var wrong: [String] = []
        for instant in instants {
            let expected = expectedOffset(onsets, observances, at: instant)
            let got = rules.offset(atUTC: instant)
            if got != expected, wrong.count < 5 {
                wrong.append("\(CivilDateTime(secondsSinceEpoch: instant)) UTC: \(got), expected \(expected)")
            }
        }
        #expect(wrong.isEmpty, "\(observances): \(wrong)")
    }
}
