import ZoneInfo

/// The calendar the clock skills count in: the Gregorian calendar from 1582-10-15 and the Julian calendar
/// before it, years before 1 AD counted back from 1 (1 BC, 2 BC…) — the calendar Foundation's `.gregorian`
/// uses, which these skills were first written with, so their answers stay the same.
enum ClockCalendar {
    /// 1582-10-15 (Gregorian), the first day of the Gregorian calendar, in days since 1970-01-01.
    static let gregorianStart = CivilDate(year: 1582, month: 10, day: 15).daysSince1970

    /// A local date and time of day, the year astronomical (0 is 1 BC).
    struct Fields: Equatable {
        var year: Int64
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
        /// 0 = Sunday … 6 = Saturday.
        var weekday: Int

        /// The year as written in the calendar's era: 1 BC for year 0.
        var eraYear: Int64 { year > 0 ? year : 1 - year }
    }

    /// The fields of local wall-clock second `local` (seconds since 1970 as if the zone were UTC).
    static func fields(local: Int64) -> Fields {
        let (days, second) = splitDays(local)
        let date = date(daysSince1970: days)
        return Fields(
            year: date.year, month: date.month, day: date.day, hour: Int(second / 3600), minute: Int(second % 3600 / 60),
            second: Int(second % 60), weekday: CivilDate.weekday(daysSince1970: days))
    }

    /// Days since 1970 of a date; days past the month's end run on into the next month (as Foundation's
    /// lenient calendar does; callers check the day they get back).
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        if (year, month) > (1582, 10) || (year == 1582 && month == 10 && day >= 15) {
            return CivilDate(year: year, month: month, day: 1).daysSince1970 + Int64(day - 1)
        }
        return julianDays(year: year, month: month) + Int64(day - 1)
    }

    /// The date of a day number.
    static func date(daysSince1970 days: Int64) -> CivilDate {
        days >= gregorianStart ? CivilDate(daysSince1970: days) : julianDate(daysSince1970: days)
    }

    /// The number of days in a month of this calendar.
    static func daysInMonth(year: Int64, month: Int) -> Int {
        if year < 1582, month == 2 { return floorModulo(year, 4) == 0 ? 29 : 28 }
        return CivilDate.daysInMonth(year: year, month: month)
    }

    /// Days since 1970 of the first day of a Julian month.
    private static func julianDays(year: Int64, month: Int) -> Int64 {
        let a = Int64((14 - month) / 12)
        let y = year + 4800 - a
        let m = Int64(month) + 12 * a - 3
        let julianDayNumber = 1 + (153 * m + 2) / 5 + 365 * y + floorDivide(y, 4) - 32083
        return julianDayNumber - 2_440_588
    }

    private static func julianDate(daysSince1970 days: Int64) -> CivilDate {
        let c = days + 2_440_588 + 32082
        let d = floorDivide(4 * c + 3, 1461)
        let e = c - floorDivide(1461 * d, 4)
        let m = (5 * e + 2) / 153
        return CivilDate(year: d - 4800 + m / 10, month: Int(m + 3 - 12 * (m / 10)), day: Int(e - (153 * m + 2) / 5 + 1))
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }
}
