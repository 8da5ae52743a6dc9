#if canImport(Glibc)
import Glibc
#endif
import SkillSDK
import ZoneInfo

/// An instant: seconds since 1970-01-01T00:00:00Z with a fraction (what Foundation's `Date` held).
typealias ClockInstant = Double

/// Parsing and formatting of the clock skills' dates, in a time zone, without locale dependence (and
/// without Foundation: the zone rules come from the system's TZif files through `ZoneInfo`).
struct ClockTime {
    /// The zone dates are read and shown in.
    let zone: ClockZone
    /// The zone's name as reported: its IANA identifier, "UTC" for UTC.
    var zoneName: String { zone.name }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    init(zone: ClockZone) { self.zone = zone }

    /// The clock for a time zone name (any case; nil means UTC).
    /// - Throws: ``SkillError`` naming `field` when the zone is unknown.
    init(zoneNamed name: String?, field: String) throws(SkillError) {
        guard let name else {
            self.init(zone: .utc)
            return
        }
        guard let zone = ClockZone.named(name) else {
            throw SkillError.invalidArguments(
                field: field, message: "unknown time zone \"\(name)\"",
                remedy:
                    "use an IANA name such as \"Europe/Paris\" or \"America/New_York\", a city such as \"Tokyo\", or \"UTC\""
            )
        }
        self.init(zone: zone)
    }

    /// The current instant, from the real-time clock.
    static func now() -> ClockInstant {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Parses "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.fff]]" with an optional "Z" or "±HH:MM"; times without
    /// an offset are wall-clock times in this clock's zone, dates alone are midnight.
    /// - Throws: ``SkillError`` naming `field` when the text is not such a date or names a day that does not exist.
    func date(from text: String, field: String) throws(SkillError) -> ClockInstant {
        let invalid = SkillError.invalidArguments(
            field: field, message: "\"\(text)\" is not a date",
            remedy: "write it as 2026-03-01, 2026-03-01T09:30 or 2026-03-01T09:30:00+01:00")
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
            let month = number(5, 2), let day = number(8, 2)
        else { throw invalid }
        var (hour, minute, second, nanosecond) = (0, 0, 0, 0)
        var zone = self.zone
        var index = 10
        if index < bytes.count {
            guard bytes[index] == 0x54 || bytes[index] == 0x20, let h = number(11, 2), bytes.count > 13,
                bytes[13] == 0x3A, let m = number(14, 2)
            else { throw invalid }
            (hour, minute) = (h, m)
            index = 16
            if index < bytes.count, bytes[index] == 0x3A {
                guard let s = number(17, 2) else { throw invalid }
                second = s
                index = 19
                if index < bytes.count, bytes[index] == 0x2E {
                    index += 1
                    var fraction = 0.0
                    var scale = 0.1
                    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                        fraction += Double(bytes[index] - 0x30) * scale
                        scale /= 10
                        index += 1
                    }
                    nanosecond = Int(fraction * 1e9)
                }
            }
            if index < bytes.count {
                if bytes[index] == 0x5A || bytes[index] == 0x7A, index + 1 == bytes.count {
                    zone = .utc
                } else if bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count,
                    let hours = number(index + 1, 2), bytes[index + 3] == 0x3A, let minutes = number(index + 4, 2),
                    hours * 3600 + minutes * 60 <= 18 * 3600  // the range of a fixed-offset zone
                {
                    zone = ClockZone.fixed((bytes[index] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60))
                } else {
                    throw invalid
                }
            }
        }
        let parsing = ClockTime(zone: zone)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            throw nonexistent(text, field: field)
        }
        let local = ClockCalendar.days(year: Int64(year), month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
        let instant = parsing.instant(local: local)
        guard parsing.fields(instant).day == day else { throw nonexistent(text, field: field) }
        return Double(instant) + Double(nanosecond) / 1e9
    }

    private func nonexistent(_ text: String, field: String) -> SkillError {
        SkillError.invalidArguments(
            field: field, message: "\"\(text)\" names a day or time that does not exist",
            remedy: "check the month length and that hours are 00-23")
    }

    /// The instant a local wall-clock second names: the first when clocks went back and it happened twice,
    /// the same wall-clock time an hour later in the new offset when clocks went forward past it.
    func instant(local: Int64) -> Int64 {
        switch zone.rules.resolve(localSeconds: local) {
        case .unique(let instant): return instant
        case .repeated(let earlier, _): return earlier
        case .skipped(let offsetBefore): return local - offsetBefore
        }
    }

    /// The local date and time of `instant` in this zone.
    func fields(_ instant: Int64) -> ClockCalendar.Fields {
        ClockCalendar.fields(local: instant + zone.rules.utcOffset(at: instant))
    }

    /// "2026-03-01T09:30:00+01:00" in this clock's zone.
    func iso8601(_ date: ClockInstant) -> String {
        let parts = fields(Self.wholeSeconds(date))
        let year = String(parts.eraYear)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + ClockZone.twoDigits(parts.month) + "-" + ClockZone.twoDigits(parts.day) + "T"
            + ClockZone.twoDigits(parts.hour) + ":" + ClockZone.twoDigits(parts.minute) + ":"
            + ClockZone.twoDigits(parts.second) + utcOffset(date)
    }

    /// "+01:00", "-05:30" or "Z".
    func utcOffset(_ date: ClockInstant) -> String {
        let seconds = Int(zone.rules.utcOffset(at: Self.wholeSeconds(date)))
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        return sign + ClockZone.twoDigits(abs(seconds) / 3600) + ":" + ClockZone.twoDigits(abs(seconds) % 3600 / 60)
    }

    /// The English weekday name of `date` in this zone.
    func weekday(_ date: ClockInstant) -> String { ClockTime.weekdays[fields(Self.wholeSeconds(date)).weekday] }

    /// Everything the skills report about one instant.
    func describe(_ date: ClockInstant) -> ClockReading {
        let text = iso8601(date)
        let dateEnd = text.firstIndex(of: "T")!
        return ClockReading(
            iso8601: text, date: String(text[..<dateEnd]),
            time: String(text[text.index(after: dateEnd)...].prefix(5)), weekday: weekday(date),
            timezone: zoneName, utcOffset: utcOffset(date),
            isDaylightSavingTime: zone.rules.isDaylightSavingWithPositiveSavings(at: Self.wholeSeconds(date)),
            unixSeconds: Self.wholeSeconds(date))
    }

    /// `amount` of `unit` after `date` (before, when negative), by the calendar of this zone: seconds,
    /// minutes and hours are elapsed time; days and weeks keep the wall-clock time; months and years keep
    /// it too and end on the month's last day when the day does not exist there.
    func adding(_ amount: Int, _ unit: String, to date: ClockInstant) -> ClockInstant? {
        switch unit {
        case "seconds": return date + Double(amount)
        case "minutes": return date + Double(amount) * 60
        case "hours": return date + Double(amount) * 3600
        case "days": return addingDays(Int64(amount), to: date)
        case "weeks": return addingDays(Int64(amount) * 7, to: date)
        case "months": return addingMonths(Int64(amount), to: date)
        case "years": return addingMonths(Int64(amount) * 12, to: date)
        default: return nil
        }
    }

    /// Whole days later, the wall-clock time of day kept where it exists (when clocks went forward past it,
    /// the elapsed-time answer, later on the wall clock). The steps of ICU's `Calendar::add`, which Foundation
    /// followed: move by whole days of elapsed time, then undo the change of offset (within a day).
    func addingDays(_ days: Int64, to date: ClockInstant) -> ClockInstant {
        let whole = Self.wholeSeconds(date)
        let fraction = date - Double(whole)
        let offset = zone.rules.utcOffset(at: whole)
        let moved = whole + days * 86_400
        let movedOffset = zone.rules.utcOffset(at: moved)
        guard movedOffset != offset else { return Double(days > 0 ? firstOccurrence(of: moved) : moved) + fraction }
        let change = offset - movedOffset
        let adjustment = change >= 0 ? change % 86_400 : -(-change % 86_400)
        let adjusted = moved + adjustment
        let timeOfDay = { (instant: Int64) in splitDays(instant + zone.rules.utcOffset(at: instant)).secondOfDay }
        // The time of day does not exist that day (clocks went forward past it): keep the elapsed time.
        let result = timeOfDay(adjusted) != timeOfDay(whole) && adjustment < 0 ? moved : adjusted
        return Double(days > 0 ? firstOccurrence(of: result) : result) + fraction
    }

    /// Going forward into a wall-clock time that happened twice (clocks went back) lands on its first
    /// occurrence, as Foundation's calendar does; other instants stay.
    private func firstOccurrence(of instant: Int64) -> Int64 {
        if case .repeated(let earlier, _) = zone.rules.resolve(localSeconds: instant + zone.rules.utcOffset(at: instant)) {
            return earlier
        }
        return instant
    }

    /// Whole months later, the day clamped to the month's length and the wall-clock time kept (a time that
    /// happened twice: its first occurrence going forward, its second going back).
    func addingMonths(_ months: Int64, to date: ClockInstant) -> ClockInstant {
        guard months != 0 else { return date }
        let whole = Self.wholeSeconds(date)
        let fraction = date - Double(whole)
        let parts = fields(whole)
        let index = parts.year * 12 + Int64(parts.month - 1) + months
        let year = ClockCalendar.floorDivide(index, 12)
        let month = Int(index - year * 12) + 1
        let day = min(parts.day, ClockCalendar.daysInMonth(year: year, month: month))
        let local = ClockCalendar.days(year: year, month: month, day: day) * 86_400
            + Int64(parts.hour * 3600 + parts.minute * 60 + parts.second)
        switch zone.rules.resolve(localSeconds: local) {
        case .unique(let instant): return Double(instant) + fraction
        case .repeated(let earlier, let later): return Double(months > 0 ? earlier : later) + fraction
        case .skipped(let offsetBefore): return Double(local - offsetBefore) + fraction
        }
    }

    /// Whole calendar days, then hours, minutes and seconds of elapsed time from `start` to `end`
    /// (`start` ≤ `end`).
    func difference(from start: ClockInstant, to end: ClockInstant) -> (day: Int, hour: Int, minute: Int, second: Int) {
        var days = Int64(((end - start) / 86_400).rounded(.down))
        while days > 0, addingDays(days, to: start) > end { days -= 1 }
        while addingDays(days + 1, to: start) <= end { days += 1 }
        let rest = Int64((end - addingDays(days, to: start)).rounded(.down))
        return (Int(days), Int(rest / 3600), Int(rest % 3600 / 60), Int(rest % 60))
    }

    /// The whole second an instant falls in.
    static func wholeSeconds(_ date: ClockInstant) -> Int64 { Int64(date.rounded(.down)) }
}
