/// An RRULE value (RFC 5545 section 3.3.10), the parts this library expands: FREQ (DAILY, WEEKLY,
/// MONTHLY, YEARLY), INTERVAL, COUNT, UNTIL, BYDAY (with ordinals for MONTHLY/YEARLY), BYMONTHDAY,
/// BYMONTH, BYHOUR, BYMINUTE, BYSECOND, BYSETPOS and WKST. The other parts RFC 5545 and RFC 7529 define
/// (BYYEARDAY, BYWEEKNO, FREQ=HOURLY…, SKIP) and `X-` parts are listed in ``unsupportedParts``; a part
/// neither defines makes the rule unreadable.
public struct RecurrenceRule: Sendable, Equatable {
    public enum Frequency: String, Sendable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday (0 = Monday … 6 = Sunday) and an optional ordinal (`2MO`, `-1FR`).
    public struct WeekdayNumber: Sendable, Equatable {
        public var ordinal: Int?
        public var weekday: Int
    }

    public var frequency: Frequency
    public var interval: Int
    public var count: Int?
    /// The UNTIL value as text (read against DTSTART's kind when expanding).
    public var until: String?
    public var byDay: [WeekdayNumber]
    public var byMonthDay: [Int]
    public var byMonth: [Int]
    public var byHour: [Int] = []
    public var byMinute: [Int] = []
    public var bySecond: [Int] = []
    /// BYSETPOS: which of each period's occurrences are kept (1 the first, -1 the last).
    public var bySetPosition: [Int] = []
    /// WKST: the day weeks start on (0 = Monday, the default … 6 = Sunday).
    public var weekStart = 0
    /// Parts present but not applied when expanding, e.g. `["BYWEEKNO"]`, and `COUNT=-1` (a negative
    /// count, which other readers ignore too).
    public var unsupportedParts: [String]

    static let weekdayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Reads the RRULE `property`. Spaces around parts and list items are ignored (`BYDAY=MO, TU`).
    /// - Throws: ``ICalendarError`` at its line for a missing or unknown FREQ, a malformed number or
    ///   weekday, an UNTIL that is not a date or date-time, a part no RFC defines (a misspelt `UNTL`), and
    ///   a calendar scale other than Gregorian (RFC 7529 `RSCALE`).
    public init(_ property: ContentLine) throws(ICalendarError) {
        func fail(_ message: String, _ remedy: String) -> ICalendarError {
            ICalendarError(line: property.line, column: property.name.count + 2, message: message, remedy: remedy)
        }
        var frequency: Frequency?
        interval = 1
        byDay = []
        byMonthDay = []
        byMonth = []
        unsupportedParts = []
        for part in property.value.split(separator: ";") where !part.allSatisfy({ $0 == " " || $0 == "\t" }) {
            let pieces = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces.uppercased() }
            guard pieces.count == 2 else {
                throw fail("RRULE part \"\(part)\" has no '='", "write parts as NAME=value separated by ';'")
            }
            let (key, value) = (pieces[0], pieces[1])
            let items = value.split(separator: ",").map { String($0).trimmingSpaces }
            func integers(_ range: ClosedRange<Int>) throws(ICalendarError) -> [Int] {
                var result: [Int] = []
                for item in items {
                    guard let number = Int(item), range.contains(number), number != 0 || range.lowerBound == 0 else {
                        throw fail(
                            "RRULE \(key)=\(value) is not a list of numbers in \(range)",
                            "write e.g. \(key)=\(range.upperBound)")
                    }
                    result.append(number)
                }
                guard !result.isEmpty else {
                    throw fail("RRULE \(key) has no value", "write e.g. \(key)=\(range.upperBound), or remove it")
                }
                return result
            }
            func weekday(_ name: String) -> Int? { RecurrenceRule.weekdayNames.firstIndex(of: name) }
            switch key {
            case "FREQ":
                guard let known = Frequency(rawValue: value) else {
                    if ["SECONDLY", "MINUTELY", "HOURLY"].contains(value) {
                        unsupportedParts.append("FREQ=\(value)")
                        frequency = .daily
                        continue
                    }
                    throw fail("RRULE FREQ=\(value) is not a frequency", "use DAILY, WEEKLY, MONTHLY or YEARLY")
                }
                frequency = known
            case "INTERVAL": interval = try integers(1...10_000)[0]
            case "COUNT":
                if let number = Int(value), number < 0 {
                    // Python's recurring_ical_events drops a negative COUNT (a public holidays feed writes
                    // COUNT=-1): the rule runs until its UNTIL.
                    unsupportedParts.append("COUNT=\(value)")
                } else {
                    count = try integers(1...1_000_000)[0]
                }
            case "UNTIL":
                guard UntilValue(text: value) != nil else {
                    throw fail("RRULE UNTIL=\(value) is not a date or date-time", "write e.g. UNTIL=20261231T235959Z")
                }
                until = value
            case "BYMONTHDAY": byMonthDay = try integers(-31...31)
            case "BYMONTH": byMonth = try integers(1...12)
            case "BYHOUR": byHour = try integers(0...23)
            case "BYMINUTE": byMinute = try integers(0...59)
            case "BYSECOND": bySecond = try integers(0...60)
            case "BYSETPOS": bySetPosition = try integers(-366...366)
            case "BYDAY":
                for item in items {
                    let name = String(item.suffix(2))
                    let ordinalText = item.dropLast(2)
                    guard let day = weekday(name),
                        ordinalText.isEmpty || Int(ordinalText).map({ $0 != 0 && abs($0) <= 53 }) == true
                    else {
                        throw fail(
                            "RRULE BYDAY entry \"\(item)\" is not a weekday", "write e.g. BYDAY=MO,WE or BYDAY=-1FR")
                    }
                    byDay.append(WeekdayNumber(ordinal: ordinalText.isEmpty ? nil : Int(ordinalText), weekday: day))
                }
            case "WKST":
                guard let day = weekday(value) else {
                    throw fail("RRULE WKST=\(value) is not a weekday", "write e.g. WKST=MO")
                }
                weekStart = day
            case "RSCALE" where value == "GREGORIAN", "SKIP" where value == "OMIT":
                break
            case "RSCALE":
                throw fail(
                    "RRULE RSCALE=\(value) repeats by a calendar other than the Gregorian one (RFC 7529)",
                    "its repetitions are not listed; add them as RDATEs if you need them")
            case "BYYEARDAY", "BYWEEKNO", "SKIP":
                unsupportedParts.append(key)
            case _ where key.hasPrefix("X-"):
                unsupportedParts.append(key)
            default:
                // A misspelt part (UNTL=20191023) may have meant to end the rule: expanding without it could
                // list years of occurrences that were never meant.
                throw fail(
                    "RRULE part \(key) is not an RRULE part", "correct it (e.g. UNTIL, COUNT, BYDAY) or remove it")
            }
        }
        guard let frequency else {
            throw fail("RRULE has no FREQ", "add FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        self.frequency = frequency
    }
}
