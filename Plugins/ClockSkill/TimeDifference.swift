import Foundation
import SkillSDK

/// `clock.difference`: the time between two dates.
struct TimeDifference: Skill {
    struct Arguments: Decodable {
        var from: String
        var to: String?
        var timezone: String?
    }

    let name = "difference"
    let title = "Time between dates"
    let description = """
        How long it is from one date (and time) to another, or until/since a date from now: total days, \
        hours, minutes and seconds, and a calendar breakdown. Answers "how many days until…" and "how long \
        ago was…". Not for finding a date a given amount away (use clock.add).
        """
    let parameters = ParameterSchema.object(
        [
            "from": ClockSchema.dateTime("Start, e.g. 2026-03-01 or 2026-03-01T09:30:00+01:00"),
            "to": ClockSchema.dateTime("End; now if absent"),
            "timezone": ClockSchema.timeZone(
                "Time zone (IANA name, city or abbreviation) for dates without an offset; UTC if absent"),
        ], required: ["from"])
    let timeout = 5.0
    let examples = [
        "how many days from {from} to {to}", "how long until {from}", "how long ago was {from}",
        "time between {from} and {to} in {timezone}", "how many days since {from}",
    ]

    struct Output: Encodable {
        var from: String
        var to: String
        var days: Int
        var hours: Int
        var minutes: Int
        var seconds: Int
        var totalDays: Double
        var totalHours: Double
        var totalMinutes: Int64
        var totalSeconds: Int64
        var isPast: Bool

        enum CodingKeys: String, CodingKey {
            case from, to, days, hours, minutes, seconds
            case totalDays = "total_days"
            case totalHours = "total_hours"
            case totalMinutes = "total_minutes"
            case totalSeconds = "total_seconds"
            case isPast = "is_past"
        }
    }

    func execute(_ arguments: Arguments, context: SkillContext) async throws -> Output {
        let clock = try ClockTime(zoneNamed: arguments.timezone, field: "/timezone")
        let start = try clock.date(from: arguments.from, field: "/from")
        let end = try arguments.to.map { text throws(SkillError) in try clock.date(from: text, field: "/to") } ?? Date()
        let seconds = Int64(end.timeIntervalSince(start).rounded())
        let parts = clock.difference(from: start, to: end)
        return Output(
            from: clock.iso8601(start), to: clock.iso8601(end), days: parts.day ?? 0, hours: parts.hour ?? 0,
            minutes: parts.minute ?? 0, seconds: parts.second ?? 0, totalDays: (Double(seconds) / 864).rounded() / 100,
            totalHours: (Double(seconds) / 36).rounded() / 100, totalMinutes: seconds / 60, totalSeconds: seconds,
            isPast: end < start)
    }
}
