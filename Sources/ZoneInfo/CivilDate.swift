/// A day of the proleptic Gregorian calendar (the calendar of TZif files and POSIX TZ rules), as year,
/// month (1–12) and day (1–31), and its conversion to and from days since 1970-01-01.
///
/// Pure integer arithmetic (H. Hinnant's `days_from_civil`), valid for any year an `Int64` day count holds.
public struct CivilDate: Hashable, Sendable {
    /// The year; 0 is 1 BC, -1 is 2 BC.
    public var year: Int64
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// A date from its parts (not checked: see ``daysInMonth(year:month:)``).
    public init(year: Int64, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01.
    public init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSince1970: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The weekday, 0 = Sunday … 6 = Saturday.
    public var weekday: Int { Self.weekday(daysSince1970: daysSince1970) }

    /// The weekday of a day number, 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    public static func weekday(daysSince1970 days: Int64) -> Int {
        Int(((days % 7) + 11) % 7)
    }

    /// Whether `year` has a February 29 in the Gregorian calendar.
    public static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1–12) of `year`.
    public static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Splits seconds since 1970 into whole days and the second of the day (0–86399), rounding toward the past.
@inlinable
public func splitDays(_ seconds: Int64) -> (days: Int64, secondOfDay: Int64) {
    let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
    return remainder < 0 ? (quotient - 1, remainder + 86_400) : (quotient, remainder)
}
