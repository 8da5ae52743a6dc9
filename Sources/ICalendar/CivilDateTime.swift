import ZoneInfo
/// A wall-clock date and time in the proleptic Gregorian calendar, without a zone. Arithmetic is plain
/// civil arithmetic (days since 1970-01-01), so it needs no Foundation calendar.
public struct CivilDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The civil time `seconds` after 1970-01-01T00:00:00 (seconds since the epoch read as UTC).
    public init(secondsSinceEpoch seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let (year, month, day) = CivilDateTime.civil(fromDays: Int(days))
        self.init(year: year, month: month, day: day, hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    /// Days since 1970-01-01 of the date part.
    public var daysSinceEpoch: Int { CivilDateTime.days(year: year, month: month, day: day) }

    /// Seconds since 1970-01-01T00:00:00, reading this wall-clock time as UTC.
    public var secondsSinceEpoch: Int64 {
        Int64(daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The weekday: 0 = Monday … 6 = Sunday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    /// The same wall-clock time `count` days later (earlier when negative).
    public func adding(days count: Int) -> CivilDateTime {
        var result = self
        (result.year, result.month, result.day) = CivilDateTime.civil(fromDays: daysSinceEpoch + count)
        return result
    }

    /// The date part at midnight.
    public var startOfDay: CivilDateTime { CivilDateTime(year: year, month: month, day: day) }

    /// Whether the fields name a real date and time (seconds up to 60 for a leap second).
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDateTime.daysIn(month: month, year: year)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
    }

    public static func < (left: CivilDateTime, right: CivilDateTime) -> Bool {
        // Field by field rather than as tuples: recurrence expansion compares every candidate, and tuple
        // comparison is generic code that looks up tuple metadata on each call in a debug build.
        if left.year != right.year { return left.year < right.year }
        if left.month != right.month { return left.month < right.month }
        if left.day != right.day { return left.day < right.day }
        if left.hour != right.hour { return left.hour < right.hour }
        if left.minute != right.minute { return left.minute < right.minute }
        return left.second < right.second
    }

    /// `2026-12-01T10:00:00`.
    public var description: String {
        "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))"
    }

    /// `2026-12-01`.
    public var dateText: String { "\(pad(year, 4))-\(pad(month))-\(pad(day))" }

    /// The number of days in a month.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (the one proleptic Gregorian day count: ZoneInfo's ``CivilDate``).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        Int(CivilDate(year: Int64(year), month: month, day: day).daysSince1970)
    }

    /// The date `days` after 1970-01-01.
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let date = CivilDate(daysSince1970: Int64(days))
        return (Int(date.year), date.month, date.day)
    }
}

func pad(_ value: Int, _ width: Int = 2) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
