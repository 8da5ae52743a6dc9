import Foundation

/// Day arithmetic on the user's calendar (Gregorian, in their zone), and the UTC offset a local time has there.
struct TemporalCalendar: Sendable {
    /// "Now".
    let now: Date
    /// The user's zone.
    let timeZone: TimeZone

    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// Today in the user's zone.
    var today: LocalDay { day(of: now) }

    /// The time it is now on the user's clock.
    var clockNow: ClockTime {
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        return ClockTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0, settled: true)
    }

    /// The local day of an instant.
    func day(of date: Date) -> LocalDay {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return LocalDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// `day` moved by `days` (negative: back).
    func adding(_ days: Int, to day: LocalDay) -> LocalDay {
        guard let date = date(day), let moved = calendar.date(byAdding: .day, value: days, to: date) else { return day }
        return self.day(of: moved)
    }

    /// Noon of a local day (a time every day has, whatever its daylight-saving change).
    func date(_ day: LocalDay) -> Date? {
        calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))
    }

    /// The weekday of a day: 0 Sunday … 6 Saturday.
    func weekday(of day: LocalDay) -> Int {
        date(day).map { calendar.component(.weekday, from: $0) - 1 } ?? 0
    }

    /// Whether a year, month and day exist ("february 30" does not).
    func exists(_ day: LocalDay) -> Bool {
        guard let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) else {
            return false
        }
        return self.day(of: date) == day
    }

    /// The instant a local day and time name, and the UTC offset the zone has then ("Z", "+01:00", "-05:00").
    func offset(of day: LocalDay, at time: ClockTime) -> String {
        let parts = DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute)
        let seconds = calendar.date(from: parts).map { timeZone.secondsFromGMT(for: $0) } ?? timeZone.secondsFromGMT(for: now)
        if seconds == 0 { return "Z" }
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// RFC 3339 date-time of a local day and time, with the offset the zone has then.
    func dateTime(_ day: LocalDay, _ time: ClockTime) -> String {
        day.text + "T" + time.text + offset(of: day, at: time)
    }

    /// Whether a local day and time is at or before now.
    func isPast(_ day: LocalDay, _ time: ClockTime) -> Bool {
        day < today || (day == today && time.minutes <= clockNow.minutes)
    }

    /// The day and time `minutes` from now.
    func fromNow(minutes: Int) -> (LocalDay, ClockTime) {
        let date = now.addingTimeInterval(Double(minutes) * 60)
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return (day(of: date), ClockTime(hour: parts.hour ?? 0, minute: parts.minute ?? 0, settled: true))
    }
}
