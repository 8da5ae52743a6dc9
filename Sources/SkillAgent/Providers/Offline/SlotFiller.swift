import Foundation
import SkillJSON
import Synchronization

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

    /// Whether `text` matches a schema `pattern` (a pattern that does not compile accepts everything).
    static func matches(_ text: String, pattern: String) -> Bool {
        guard let regex = compiled(pattern) else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, range: range) != nil
    }

    /// A compiled expression; immutable, so one may be shared by threads.
    struct CompiledPattern: @unchecked Sendable {
        let expression: NSRegularExpression
    }

    /// Patterns compiled once per process (the planner checks the same few schema patterns many times per
    /// request); at most 256 are kept.
    private static let patterns = Mutex<[String: CompiledPattern?]>([:])

    static func compiled(_ pattern: String) -> NSRegularExpression? {
        if let known = patterns.withLock({ $0[pattern] }) { return known?.expression }
        let compiled = (try? NSRegularExpression(pattern: pattern)).map(CompiledPattern.init)
        patterns.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[pattern] = compiled
        }
        return compiled?.expression
    }

    /// The user's calendar at `now`.
    var calendar: TemporalCalendar { TemporalCalendar(now: now, timeZone: timeZone) }

    /// The one date or time `text` says, read as ``TemporalScanner`` reads requests; nil unless all of its
    /// words are that one date (a word such as "on" before it allowed).
    func temporal(_ text: String) -> TemporalValue? {
        let words = text.split(separator: " ").map(String.init)
        let mentions = TemporalScanner(calendar: calendar).mentions(in: words)
        guard mentions.count == 1, mentions[0].range == words.indices || mentions[0].core == words.indices else { return nil }
        return mentions[0].value
    }

    /// A day ("today", "friday", "december 25", "2026-03-01") → `YYYY-MM-DD`.
    func date(_ text: String) -> String? {
        guard case .day(let day)? = temporal(text) else { return nil }
        return day.text
    }

    /// A time of day ("10am", "10:30", "noon") → RFC 3339 `full-time` with the user's offset today.
    func time(_ text: String) -> String? {
        switch temporal(text) {
        case .time(let time)?: return time.text + calendar.offset(of: calendar.today, at: time)
        case .instant(let day, let time)?: return time.text + calendar.offset(of: day, at: time)
        default: return nil
        }
    }

    /// A moment ("tomorrow at 10am", "10:30", "friday 3pm") → RFC 3339 `date-time` in the user's zone; a
    /// time alone is today. A day alone is no moment (nil): the planner does not pick its hour.
    func dateTime(_ text: String) -> String? {
        switch temporal(text) {
        case .time(let time)?: return calendar.dateTime(calendar.today, time)
        case .instant(let day, let time)?: return calendar.dateTime(day, time)
        case .literal(let literal)?: return literal
        default: return nil
        }
    }
}
