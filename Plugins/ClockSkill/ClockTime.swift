import Foundation
import SkillSDK

/// Parsing and formatting of the clock skills' dates, in a time zone, without locale dependence.
struct ClockTime {
    /// The zone dates are read and shown in.
    let timeZone: TimeZone
    /// The zone's name as reported: its IANA identifier, "UTC" for UTC (Foundation calls it "GMT").
    var zoneName: String {
        timeZone.secondsFromGMT() == 0 && timeZone.identifier == "GMT" ? "UTC" : timeZone.identifier
    }
    private let calendar: Calendar

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The clock for a time zone name (any case; nil means UTC).
    /// - Throws: ``SkillError`` naming `field` when the zone is unknown.
    init(zoneNamed name: String?, field: String) throws(SkillError) {
        guard let name else {
            self.init(timeZone: TimeZone(identifier: "UTC")!)
            return
        }
        guard let zone = ClockTime.timeZone(named: name) else {
            throw SkillError.invalidArguments(
                field: field, message: "unknown time zone \"\(name)\"",
                remedy:
                    "use an IANA name such as \"Europe/Paris\" or \"America/New_York\", a city such as \"Tokyo\", or \"UTC\""
            )
        }
        self.init(timeZone: zone)
    }

    /// A zone by IANA name ("Europe/Paris", any case), by city ("Paris", "new york": the zone named after
    /// it), or by abbreviation ("UTC", "GMT", "Z", "PST", "CET").
    static func timeZone(named name: String) -> TimeZone? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if ["utc", "gmt", "z"].contains(lowered) { return TimeZone(identifier: "UTC") }
        if trimmed.count <= 5, trimmed.allSatisfy(\.isLetter), let zone = TimeZone(abbreviation: trimmed.uppercased()) {
            return zone
        }
        if let zone = TimeZone(identifier: trimmed) { return zone }
        let identifiers = TimeZone.knownTimeZoneIdentifiers
        if let identifier = identifiers.first(where: { $0.lowercased() == lowered }) {
            return TimeZone(identifier: identifier)
        }
        let city = "/" + lowered.replacingOccurrences(of: " ", with: "_")
        if !trimmed.contains("/"), let identifier = identifiers.first(where: { $0.lowercased().hasSuffix(city) }) {
            return TimeZone(identifier: identifier)
        }
        return nil
    }

    /// Parses "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.fff]]" with an optional "Z" or "±HH:MM"; times without
    /// an offset are wall-clock times in this clock's zone, dates alone are midnight.
    /// - Throws: ``SkillError`` naming `field` when the text is not such a date or names a day that does not exist.
    func date(from text: String, field: String) throws(SkillError) -> Date {
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
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var zone = timeZone
        var index = 10
        if index < bytes.count {
            guard bytes[index] == 0x54 || bytes[index] == 0x20, let hour = number(11, 2), bytes.count > 13,
                bytes[13] == 0x3A, let minute = number(14, 2)
            else { throw invalid }
            components.hour = hour
            components.minute = minute
            index = 16
            if index < bytes.count, bytes[index] == 0x3A {
                guard let second = number(17, 2) else { throw invalid }
                components.second = second
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
                    components.nanosecond = Int(fraction * 1e9)
                }
            }
            if index < bytes.count {
                if bytes[index] == 0x5A || bytes[index] == 0x7A, index + 1 == bytes.count {
                    zone = TimeZone(identifier: "UTC")!
                } else if bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count,
                    let hours = number(index + 1, 2), bytes[index + 3] == 0x3A, let minutes = number(index + 4, 2),
                    let offsetZone = TimeZone(
                        secondsFromGMT: (bytes[index] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60))
                {
                    zone = offsetZone
                } else {
                    throw invalid
                }
            }
        }
        var parsingCalendar = calendar
        parsingCalendar.timeZone = zone
        guard (1...12).contains(month), (1...31).contains(day), components.hour! < 24, components.minute! < 60,
            components.second! < 61, let date = parsingCalendar.date(from: components),
            parsingCalendar.component(.day, from: date) == day
        else {
            throw SkillError.invalidArguments(
                field: field, message: "\"\(text)\" names a day or time that does not exist",
                remedy: "check the month length and that hours are 00-23")
        }
        return date
    }

    /// "2026-03-01T09:30:00+01:00" in this clock's zone.
    func iso8601(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!,
            parts.minute!, parts.second!) + utcOffset(date)
    }

    /// "+01:00", "-05:30" or "Z".
    func utcOffset(_ date: Date) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        return sign + String(format: "%02d:%02d", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    /// The English weekday name of `date` in this zone.
    func weekday(_ date: Date) -> String { ClockTime.weekdays[calendar.component(.weekday, from: date) - 1] }

    /// Everything the skills report about one instant.
    func describe(_ date: Date) -> ClockReading {
        ClockReading(
            iso8601: iso8601(date), date: String(iso8601(date).prefix(10)),
            time: String(iso8601(date).dropFirst(11).prefix(5)), weekday: weekday(date),
            timezone: zoneName, utcOffset: utcOffset(date),
            isDaylightSavingTime: timeZone.isDaylightSavingTime(for: date),
            unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// `amount` of `unit` after `date` (before, when negative), by the calendar of this zone.
    func adding(_ amount: Int, _ unit: String, to date: Date) -> Date? {
        let component: Calendar.Component
        var amount = amount
        switch unit {
        case "seconds": component = .second
        case "minutes": component = .minute
        case "hours": component = .hour
        case "days": component = .day
        case "weeks":
            component = .day
            amount *= 7
        case "months": component = .month
        case "years": component = .year
        default: return nil
        }
        return calendar.date(byAdding: component, value: amount, to: date)
    }

    /// Whole calendar days and the remaining hours and minutes from `start` to `end`.
    func difference(from start: Date, to end: Date) -> DateComponents {
        calendar.dateComponents([.day, .hour, .minute, .second], from: start, to: end)
    }
}
