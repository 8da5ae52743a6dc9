import Foundation
import SkillJSON

/// Turns the words a template slot took into a JSON value of the parameter's type, reading the parameter's
/// schema: `integer`, `number`, `boolean`, `enum`, strings with `format` `date`, `time` or `date-time`
/// ("tomorrow", "10am", "tomorrow at 10:30"), and plain strings. Returns nil when the words do not fit, so
/// the template matcher can try another split.
struct SlotFiller: Sendable {
    /// "Now", for relative dates.
    let now: Date
    /// The user's time zone, for dates and times.
    let timeZone: TimeZone

    /// The value for `words` under the parameter schema `schema` (nil schema: a string). A string
    /// parameter whose name mentions a time zone also takes a city ("Paris" → "Europe/Paris").
    func value(for words: [String], schema: JSONValue?, parameter: String = "") -> JSONValue? {
        let text = words.joined(separator: " ")
        var plain = Self.unquoted(text)
        if parameter.lowercased().contains("zone"), let zone = Self.timeZoneIdentifier(plain) { plain = zone }
        guard !plain.isEmpty else { return nil }
        // An enum value or a name of one ("1 day" for "days", "kilometers" for "km"; see ChoiceNames).
        if let choices = ChoiceNames(schema) { return choices.value(named: plain) }
        let types = Self.types(of: schema)
        if types.contains("integer"), let number = Self.integer(plain) { return .int(number) }
        if types.contains("number"), let number = Double(plain), number.isFinite {
            return number.rounded() == number && abs(number) < 1e15 ? .int(Int64(number)) : .double(number)
        }
        if types.contains("boolean"), let flag = Self.boolean(plain) { return .bool(flag) }
        guard types.contains("string") else { return nil }
        switch schema?["format"]?.stringValue {
        case "date": return date(plain).map { .string($0) }
        case "time": return time(plain).map { .string($0) }
        case "date-time": return dateTime(plain).map { .string($0) }
        default:
            guard let pattern = schema?["pattern"]?.stringValue, !Self.matches(plain, pattern: pattern) else {
                return .string(plain)
            }
            // A date-shaped pattern: "tomorrow", "friday at 10am" become ISO dates if that fits.
            let candidates = [date(plain), dateTime(plain)].compactMap { $0 }
            return candidates.first { Self.matches($0, pattern: pattern) }.map { .string($0) }
        }
    }

    /// The JSON types a schema allows (no `type`: every type, read as a string first).
    static func types(of schema: JSONValue?) -> Set<String> {
        switch schema?["type"] {
        case .string(let type)?: return [type]
        case .array(let types)?: return Set(types.compactMap(\.stringValue))
        default: return ["string"]
        }
    }

    /// The IANA identifier for a zone name or a city in it, ignoring case ("new york" → "America/New_York").
    static func timeZoneIdentifier(_ text: String) -> String? {
        let wanted = text.lowercased().replacingOccurrences(of: " ", with: "_")
        if let zone = zoneNames.identifiers[wanted] ?? zoneNames.cities[wanted] { return zone }
        return TimeZone(identifier: text) != nil ? text : nil
    }

    /// The known zone identifiers by lowercased name, and by lowercased last part ("new_york"), the first
    /// identifier in sorted order winning; built once.
    static let zoneNames: (identifiers: [String: String], cities: [String: String]) = {
        var identifiers: [String: String] = [:]
        var cities: [String: String] = [:]
        for zone in TimeZone.knownTimeZoneIdentifiers.sorted() {
            let lowered = zone.lowercased()
            if identifiers[lowered] == nil { identifiers[lowered] = zone }
            if let city = lowered.split(separator: "/").last.map(String.init), cities[city] == nil { cities[city] = zone }
        }
        return (identifiers, cities)
    }()

    static func unquoted(_ text: String) -> String {
        var value = text.trimmingWhitespace()
        let quotes: Set<Character> = ["\"", "'", "“", "”", "‘", "’"]
        if value.count >= 2, let first = value.first, let last = value.last, quotes.contains(first), quotes.contains(last) {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }

    static let numberWords = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ]

    static func integer(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        return numberWords.firstIndex(of: text.lowercased()).map(Int64.init)
    }

    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "on", "y": return true
        case "no", "false", "off", "n": return false
        default: return nil
        }
    }

    static func matches(_ text: String, pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, range: range) != nil
    }

    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// "today", "tomorrow", "yesterday", a weekday name, a month and day ("december 25", see
    /// ``monthDayDate(_:)``), or `YYYY-MM-DD` → `YYYY-MM-DD`.
    func date(_ text: String) -> String? {
        let lowered = text.lowercased().replacingOccurrences(of: "on ", with: "")
        let offsets = ["today": 0, "tomorrow": 1, "yesterday": -1, "the day after tomorrow": 2]
        if let offset = offsets[lowered], let day = calendar.date(byAdding: .day, value: offset, to: now) {
            return Self.format(calendar.dateComponents([.year, .month, .day], from: day))
        }
        let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if let weekday = weekdays.firstIndex(of: lowered.replacingOccurrences(of: "next ", with: "")) {
            let today = calendar.component(.weekday, from: now) - 1
            var ahead = (weekday - today + 7) % 7
            if ahead == 0 { ahead = 7 }
            guard let day = calendar.date(byAdding: .day, value: ahead, to: now) else { return nil }
            return Self.format(calendar.dateComponents([.year, .month, .day], from: day))
        }
        if let date = monthDayDate(lowered) { return date }
        let parts = lowered.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            parts[0].count == 4, (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return Self.format(DateComponents(year: year, month: month, day: day))
    }

    /// "10", "10am", "10:30", "10:30 pm", "noon", "midnight" → RFC 3339 `full-time` in the user's zone.
    func time(_ text: String) -> String? {
        guard let (hour, minute) = Self.clock(text) else { return nil }
        return String(format: "%02d:%02d:00", hour, minute) + offset(at: now)
    }

    /// A date, a time, or both ("tomorrow at 10am", "10:30 tomorrow") → RFC 3339 `date-time`.
    func dateTime(_ text: String) -> String? {
        let lowered = text.lowercased()
        var datePart = lowered
        var timePart = ""
        if let range = lowered.range(of: " at ") {
            datePart = String(lowered[..<range.lowerBound])
            timePart = String(lowered[range.upperBound...])
        } else if Self.clock(lowered) != nil {
            datePart = "today"
            timePart = lowered
        } else if let space = lowered.firstIndex(of: " "), Self.clock(String(lowered[..<space])) != nil {
            timePart = String(lowered[..<space])
            datePart = String(lowered[lowered.index(after: space)...])
        }
        guard let day = date(datePart) else { return nil }
        let (hour, minute) = timePart.isEmpty ? (9, 0) : (Self.clock(timePart) ?? (-1, -1))
        guard hour >= 0 else { return nil }
        return day + "T" + String(format: "%02d:%02d:00", hour, minute) + offset(at: now)
    }

    /// Hour and minute of a clock time in words.
    static func clock(_ text: String) -> (Int, Int)? {
        var value = text.lowercased().replacingOccurrences(of: " ", with: "").replacingOccurrences(of: ".", with: "")
        if value == "noon" { return (12, 0) }
        if value == "midnight" { return (0, 0) }
        var meridiem: String?
        for suffix in ["am", "pm"] where value.hasSuffix(suffix) {
            meridiem = suffix
            value.removeLast(2)
        }
        if value.hasSuffix("o'clock") { value.removeLast(7) }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let hour = Int(parts[0]), parts[0].count <= 2 else { return nil }
        let minute = parts.count == 2 ? Int(parts[1]) : 0
        guard let minute, (0...59).contains(minute), parts.count == 1 || parts[1].count == 2 else { return nil }
        switch meridiem {
        case "am"?:
            guard (1...12).contains(hour) else { return nil }
            return (hour % 12, minute)
        case "pm"?:
            guard (1...12).contains(hour) else { return nil }
            return (hour % 12 + 12, minute)
        default:
            guard (0...23).contains(hour), parts.count == 2 || meridiem != nil || hour <= 23 else { return nil }
            return (hour, minute)
        }
    }

    private func offset(at date: Date) -> String {
        let seconds = timeZone.secondsFromGMT(for: date)
        if seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    private static func format(_ components: DateComponents) -> String? {
        guard let year = components.year, let month = components.month, let day = components.day else { return nil }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}
