import Foundation
import SkillJSON
import SkillCalls

/// What a result holds, as lines under its one-line summary, for answers people read (the offline planner's):
/// each array of items the summary does not already show (events, reminders, matches, entries, slots) as
/// its first few items — a title or name with its times, due date, place or matching line — then "and N
/// more"; and a text the result carries (a file's contents) as its first lines.
///
/// Times in results (`2026-12-04T15:00:00+01:00`, `…Z`, `2026-12-04`) are shown in the user's zone with
/// the weekday: "Fri 2026-12-04 15:00–16:00".
struct ResultListing: Sendable {
    /// The zone times are shown in.
    let timeZone: TimeZone
    /// Items shown per array before "and N more".
    var itemLimit = 5
    /// Lines of a carried text shown before "… N more lines".
    var lineLimit = 12

    /// The lines that list what `result` holds beyond `sentence` (its summary, from `template` when the skill
    /// has one), each starting with "  - " for an item or "  " for a line of text; empty when there is
    /// nothing more to say. Members the template names (`{sentences.count}`) are not listed again.
    func lines(for result: JSONValue, after sentence: String, template: String? = nil) -> [String] {
        guard case .object(let object) = result else { return [] }
        var lines: [String] = []
        for (key, value) in object.members where !key.hasPrefix("_") {
            if let template, ["{" + key + "}", "{" + key + ".", "{" + key + "|"].contains(where: template.contains) { continue }
            switch value {
            // Numbers alone (indexes, counts) mean nothing listed.
            case .array(let items) where !items.isEmpty && !items.allSatisfy({ $0.doubleValue != nil || $0.boolValue != nil }):
                let shown = items.prefix(itemLimit).map(item)
                // A list the sentence already names item by item ("Keywords: apples, pears", "Found 1 free slot,
                // 09:30–12:00 on …") is not repeated.
                if items.prefix(itemLimit).allSatisfy({ said($0, in: sentence) }) { continue }
                lines += shown.map { "  - " + $0 }
                if items.count > itemLimit { lines.append("  - and \(items.count - itemLimit) more") }
            case .string(let text) where Self.textKeys.contains(key) && !sentence.contains(text.prefix(40)):
                let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let body = all.last == "" ? Array(all.dropLast()) : all
                lines += body.prefix(lineLimit).map { "  " + $0 }
                if body.count > lineLimit { lines.append("  … \(body.count - lineLimit) more lines") }
            default:
                continue
            }
        }
        return lines
    }

    /// Whether `sentence` already names an item: its label, or for an item without one its start and end
    /// times ("09:30–12:00").
    func said(_ item: JSONValue, in sentence: String) -> Bool {
        if let label = Self.label(item) { return sentence.localizedCaseInsensitiveContains(label) }
        guard let start = item["start"]?.stringValue, let end = item["end"]?.stringValue,
            case .instant(let first)? = parse(start), case .instant(let last)? = parse(end)
        else { return false }
        return sentence.contains(clockText(first) + "–" + clockText(last))
    }

    /// Members whose text is the content itself (a file's text), shown as lines.
    static let textKeys: Set<String> = ["text", "content", "contents", "body"]

    /// The name an item goes by: its title, name, keyword, word or path.
    static func label(_ item: JSONValue) -> String? {
        if let text = item.stringValue { return text }
        return ["title", "name", "keyword", "word", "summary", "path"].lazy.compactMap { item[$0]?.stringValue }.first
    }

    /// One item on one line: "dentist appointment — Fri 2026-12-04 15:00–16:00", "call mom — due Fri
    /// 2026-12-04 09:00", "notes/todo.txt, line 2: call the bank", "09:00–12:00 (180 min)".
    func item(_ value: JSONValue) -> String {
        guard case .object(let object) = value else { return ResultSummaryTemplate.text(of: value, nested: true) }
        var parts: [String] = []
        var label = Self.label(value)
        if let name = label, object["type"]?.stringValue == "directory" { label = name + "/" }
        if let line = object["line"]?.stringValue {
            let number = object["line_number"].map { "line \($0.serialized())" } ?? "line"
            label = (label.map { $0 + ", " } ?? "") + number + ": " + line
        }
        if let label { parts.append(label) }
        if let start = object["start"]?.stringValue {
            parts.append(span(start, object["end"]?.stringValue))
        } else if let due = object["due"]?.stringValue {
            parts.append("due " + moment(due))
        }
        var extras: [String] = []
        if let location = object["location"]?.stringValue, !location.isEmpty { extras.append("at " + location) }
        if let minutes = object["minutes"]?.intValue { extras.append("\(minutes) min") }
        if let count = object["count"]?.intValue, label != nil { extras.append("\(count)") }
        if object["done"] == .bool(true) { extras.append("done") }
        if let priority = object["priority"]?.stringValue { extras.append(priority + " priority") }
        var line = parts.joined(separator: " — ")
        if !extras.isEmpty { line += (line.isEmpty ? "" : " ") + "(" + extras.joined(separator: ", ") + ")" }
        return line.isEmpty ? ResultSummaryTemplate.text(of: value, nested: true) : line
    }

    /// A start and end: "Fri 2026-12-04 15:00–16:00", "Fri 2026-12-04" (all day), or two moments.
    func span(_ start: String, _ end: String?) -> String {
        guard let end else { return moment(start) }
        switch (parse(start), parse(end)) {
        case (.day(let first)?, .day(let last)?):
            // An all-day event ends (exclusively) the day after its last day.
            let lastDay = last.addingTimeInterval(-86_400)
            return lastDay <= first ? dayText(first, zone: .utc) : dayText(first, zone: .utc) + " – " + dayText(lastDay, zone: .utc)
        case (.instant(let first)?, .instant(let last)?):
            let sameDay = dayText(first, zone: timeZone) == dayText(last, zone: timeZone)
            return moment(start) + "–" + (sameDay ? clockText(last) : moment(end))
        default:
            return moment(start) + " – " + moment(end)
        }
    }

    /// A date or date-time as people read it, in the user's zone; other text unchanged.
    func moment(_ text: String) -> String {
        switch parse(text) {
        case .day(let date)?: return dayText(date, zone: .utc)
        case .instant(let date)?: return dayText(date, zone: timeZone) + " " + clockText(date)
        case nil: return text
        }
    }

    enum Parsed {
        case day(Date)
        case instant(Date)
    }

    /// `YYYY-MM-DD` (a day, at UTC midnight) or an RFC 3339 date-time with an offset or `Z`
    /// (`2026-12-04T15:00`, `…:00+01:00`); nil for anything else.
    func parse(_ text: String) -> Parsed? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let year = number(0..<4),
            let month = number(5..<7), let day = number(8..<10), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var parts = DateComponents(year: year, month: month, day: day)
        if bytes.count == 10 { return Calendar.utc.date(from: parts).map { .day($0) } }
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), let hour = number(11..<13),
            let minute = number(14..<16), hour < 24, minute < 60
        else { return nil }
        parts.hour = hour
        parts.minute = minute
        var index = 16
        if index + 3 <= bytes.count, bytes[index] == UInt8(ascii: ":"), let second = number((index + 1)..<(index + 3)) {
            parts.second = second
            index += 3
            while index < bytes.count, bytes[index] == UInt8(ascii: ".") || (0x30...0x39).contains(bytes[index]) { index += 1 }
        }
        var offset = 0
        if index == bytes.count - 1, bytes[index] == UInt8(ascii: "Z") {
            offset = 0
        } else if index + 6 == bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
            let hours = number((index + 1)..<(index + 3)), bytes[index + 3] == UInt8(ascii: ":"),
            let minutes = number((index + 4)..<(index + 6))
        {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil  // no offset: whose clock it is on is unknown
        }
        return Calendar.utc.date(from: parts).map { .instant($0.addingTimeInterval(Double(-offset))) }
    }

    func dayText(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][((parts.weekday ?? 1) - 1) % 7]
        return weekday + String(format: " %04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    func clockText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

}

extension TimeZone {
    /// UTC.
    static let utc = TimeZone(secondsFromGMT: 0)!
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .utc
        return calendar
    }
}
