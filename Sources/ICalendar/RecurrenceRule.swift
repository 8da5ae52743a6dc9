/// An RRULE value (RFC 5545 section 3.3.10), the parts this library expands: FREQ (DAILY, WEEKLY,
/// MONTHLY, YEARLY), INTERVAL, COUNT, UNTIL, BYDAY (with ordinals for MONTHLY/YEARLY), BYMONTHDAY,
/// BYMONTH. Other parts (BYSETPOS, BYHOUR, WKST…) are listed in ``unsupportedParts``.
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
    /// Parts present but not applied when expanding, e.g. `["BYSETPOS"]`.
    public var unsupportedParts: [String]

    static let weekdayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Reads the RRULE `property`.
    /// - Throws: ``ICalendarError`` at its line for a missing or unknown FREQ and for malformed numbers.
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
        for part in property.value.split(separator: ";") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces.uppercased() }
            guard pieces.count == 2 else {
                throw fail("RRULE part \"\(part)\" has no '='", "write parts as NAME=value separated by ';'")
            }
            let (key, value) = (pieces[0], pieces[1])
            func integers(_ range: ClosedRange<Int>) throws(ICalendarError) -> [Int] {
                var result: [Int] = []
                for item in value.split(separator: ",") {
                    guard let number = Int(item), range.contains(number), number != 0 || range.lowerBound == 0 else {
                        throw fail(
                            "RRULE \(key)=\(value) is not a list of numbers in \(range)",
                            "write e.g. \(key)=\(range.upperBound)")
                    }
                    result.append(number)
                }
                return result
            }
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
            case "COUNT": count = try integers(1...1_000_000)[0]
            case "UNTIL": until = value
            case "BYMONTHDAY": byMonthDay = try integers(-31...31)
            case "BYMONTH": byMonth = try integers(1...12)
            case "BYDAY":
                for item in value.split(separator: ",") {
                    let name = String(item.suffix(2))
                    let ordinalText = item.dropLast(2)
                    guard let weekday = RecurrenceRule.weekdayNames.firstIndex(of: name),
                        ordinalText.isEmpty || Int(ordinalText).map({ $0 != 0 && abs($0) <= 53 }) == true
                    else {
                        throw fail(
                            "RRULE BYDAY entry \"\(item)\" is not a weekday", "write e.g. BYDAY=MO,WE or BYDAY=-1FR")
                    }
                    byDay.append(WeekdayNumber(ordinal: ordinalText.isEmpty ? nil : Int(ordinalText), weekday: weekday))
                }
            case "WKST" where value == "MO":
                break
            default:
                unsupportedParts.append(key)
            }
        }
        guard let frequency else {
            throw fail("RRULE has no FREQ", "add FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        self.frequency = frequency
    }
}
