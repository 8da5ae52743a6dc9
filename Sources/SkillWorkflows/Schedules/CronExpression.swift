import ZoneInfo
#if canImport(Glibc)
import Glibc
#endif

/// A cron schedule: five fields, minute (0–59), hour (0–23), day of month (1–31), month (1–12 or jan–dec),
/// day of week (0–7 or sun–sat; 0 and 7 are Sunday), each `*`, a number, a range `a-b`, a step `*/n` or
/// `a-b/n`, or a list of those; or one of `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`. As in
/// cron, when both day fields are restricted a day matching either is due. Times are in the zone a
/// `TZ=ZONE ` (or `CRON_TZ=ZONE `) prefix names (an IANA zone of the system's database:
/// `TZ=Europe/Paris 0 9 * * *` is 9:00 in Paris, summer and winter), else the system's local time.
public struct CronExpression: Sendable, Equatable {
    public let text: String
    /// The zone the prefix names; nil: the system's local time.
    public let zone: String?
    let rules: ZoneRules?
    let minutes: Set<Int>, hours: Set<Int>, days: Set<Int>, months: Set<Int>, weekdays: Set<Int>
    let daysRestricted: Bool, weekdaysRestricted: Bool

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// Reads `text`; the error says which field is wrong, where, and what it takes.
    public init(_ text: String, zones: ZoneInfoDirectory = .system) throws(WorkflowSyntaxError) {
        self.text = text
        var text = Substring(text.trimmingCharacters(in: " \t"))
        var zone: String?
        var rules: ZoneRules?
        for prefix in ["TZ=", "CRON_TZ="] where text.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            let name = String(rest.prefix { $0 != " " && $0 != "\t" })
            guard !name.isEmpty else {
                throw WorkflowSyntaxError("'\(self.text)': \(prefix) names no zone; write e.g. 'TZ=Europe/Paris 0 9 * * *'")
            }
            guard let file = zones.zone(named: name) else {
                throw WorkflowSyntaxError("'\(self.text)': the zone '\(name)' is not in the time-zone database (\(zones.path)); use an IANA name such as Europe/Paris")
            }
            zone = name
            rules = ZoneRules(file)
            text = rest.dropFirst(name.count)
        }
        self.zone = zone
        self.rules = rules
        let macros = ["@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
                      "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *"]
        let expanded = macros[text.trimmingCharacters(in: " \t").lowercased()] ?? String(text)
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw WorkflowSyntaxError("'\(self.text)' has \(fields.count) field\(fields.count == 1 ? "" : "s"); a cron schedule has 5: minute hour day-of-month month day-of-week (e.g. '0 9 * * 1-5')")
        }
        minutes = try Self.field(fields[0], name: "minute", 0...59, names: [])
        hours = try Self.field(fields[1], name: "hour", 0...23, names: [])
        days = try Self.field(fields[2], name: "day of month", 1...31, names: [])
        months = try Self.field(fields[3], name: "month", 1...12, names: Self.monthNames, offset: 1)
        var weekdays = try Self.field(fields[4], name: "day of week", 0...7, names: Self.dayNames)
        if weekdays.remove(7) != nil { weekdays.insert(0) }
        self.weekdays = weekdays
        daysRestricted = fields[2] != "*"
        weekdaysRestricted = fields[4] != "*"
    }

    static func field(_ text: String, name: String, _ range: ClosedRange<Int>, names: [String], offset: Int = 0) throws(WorkflowSyntaxError) -> Set<Int> {
        var result = Set<Int>()
        func value(_ token: Substring) throws(WorkflowSyntaxError) -> Int {
            if let number = Int(token), range.contains(number) { return number }
            if let index = names.firstIndex(of: token.lowercased()) { return index + offset }
            throw WorkflowSyntaxError("the \(name) field '\(text)': '\(token)' is not \(range.lowerBound)–\(range.upperBound)\(names.isEmpty ? "" : " or a name (\(names.first!)…)"); fix the schedule")
        }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var body = part
            var step = 1
            if let slash = part.firstIndex(of: "/") {
                guard let number = Int(part[part.index(after: slash)...]), number > 0 else {
                    throw WorkflowSyntaxError("the \(name) field '\(text)': the step after '/' must be a whole number over 0; fix the schedule")
                }
                step = number
                body = part[..<slash]
            }
            let bounds: ClosedRange<Int>
            if body == "*" {
                bounds = range
            } else if let dash = body.firstIndex(of: "-"), dash != body.startIndex {
                let low = try value(body[..<dash]), high = try value(body[body.index(after: dash)...])
                guard low <= high else {
                    throw WorkflowSyntaxError("the \(name) field '\(text)': the range \(body) runs backwards; write the smaller value first")
                }
                bounds = low...high
            } else {
                let single = try value(body)
                bounds = single...(part.contains("/") ? range.upperBound : single)
            }
            result.formUnion(stride(from: bounds.lowerBound, through: bounds.upperBound, by: step))
        }
        return result
    }

    /// Whether the minute that starts at Unix time `seconds` (local time) is due.
    public func matches(unixSeconds seconds: Int64) -> Bool {
        let (minute, hour, day, month, weekday) = fields(at: seconds)
        guard minutes.contains(minute), hours.contains(hour), months.contains(month) else { return false }
        let dayMatch = days.contains(day), weekdayMatch = weekdays.contains(weekday)
        if daysRestricted && weekdaysRestricted { return dayMatch || weekdayMatch }
        return dayMatch && weekdayMatch
    }

    /// Minute, hour, day of month, month (1–12) and weekday (0 = Sunday) of `seconds` in the schedule's zone.
    func fields(at seconds: Int64) -> (Int, Int, Int, Int, Int) {
        guard let rules else {
            var time = time_t(seconds)
            var parts = tm()
            localtime_r(&time, &parts)
            return (Int(parts.tm_min), Int(parts.tm_hour), Int(parts.tm_mday), Int(parts.tm_mon) + 1, Int(parts.tm_wday))
        }
        let local = seconds + rules.utcOffset(at: seconds)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let inDay = local - days * 86_400
        let date = CivilDate(daysSince1970: days)
        return (Int(inDay / 60 % 60), Int(inDay / 3600), date.day, date.month, CivilDate.weekday(daysSince1970: days))
    }

    public static func == (a: CronExpression, b: CronExpression) -> Bool { a.text == b.text }

    /// The latest due minute at or before `seconds` and after `after` (Unix seconds), or nil. Looks back at
    /// most a day (a missed run older than that is not made up).
    public func latestDue(atOrBefore seconds: Int64, after: Int64) -> Int64? {
        var minute = seconds - ((seconds % 60) + 60) % 60
        let floor = max(after, seconds - 86_400)
        while minute > floor {
            if matches(unixSeconds: minute) { return minute }
            minute -= 60
        }
        return nil
    }
}
