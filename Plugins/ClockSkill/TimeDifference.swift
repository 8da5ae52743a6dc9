import SkillSDK

/// `clock.difference`: the time from one date to another (from now, by default).
struct TimeDifference: SynchronousSkill {
    struct Arguments: Decodable {
        var to: String
        var from: String?
        var timezone: String?
    }

    let name = "difference"
    let title = "Time between dates"
    let description = """
        How long it is from now (or from a given date) to a date: days, hours and minutes, and totals. \
        Answers "how many days until…", "how long ago was…" and "how long from … to …"; `is_past` says \
        whether the date lies before the start. Not for finding the date a given amount away (use clock.add).
        """
    let parameters = ParameterSchema.object(
        [
            "to": ClockSchema.dateTime("The date to measure to, e.g. 2026-12-25 or 2026-12-25T18:00:00+01:00"),
            "from": ClockSchema.dateTime("The date to measure from; now if absent"),
            "timezone": ClockSchema.timeZone(
                "Time zone (IANA name, city or abbreviation) for dates without an offset; UTC if absent"),
        ], required: ["to"])
    let timeout = 5.0
    let summary: String? = "{days|day|days}, {hours|hour|hours} and {minutes|minute|minutes} from {from} to {to}."
    let examples = [
        "how many days until {to}", "how long until {to}", "how long ago was {to}", "how many days since {to}",
        "how many days from {from} to {to}", "time between {from} and {to} in {timezone}",
        "how long from {from} to {to}",
    ]

    struct Output: Encodable {
        var days: Int
        var hours: Int
        var minutes: Int
        var isPast: Bool
        var from: String
        var to: String
        var seconds: Int
        var totalDays: Double
        var totalHours: Double
        var totalMinutes: Int64
        var totalSeconds: Int64

        enum CodingKeys: String, CodingKey {
            case days, hours, minutes
            case isPast = "is_past"
            case from, to, seconds
            case totalDays = "total_days"
            case totalHours = "total_hours"
            case totalMinutes = "total_minutes"
            case totalSeconds = "total_seconds"
        }
    }

    /// Days, hours, minutes and seconds are the calendar breakdown of the span, always positive; the totals
    /// are signed (negative when `to` is before `from`).
    func run(_ arguments: Arguments, context: SkillContext) throws -> Output {
        let clock = try ClockTime(zoneNamed: arguments.timezone, field: "/timezone")
        let end = try clock.date(from: arguments.to, field: "/to")
        let start =
            try arguments.from.map { text throws(SkillError) in try clock.date(from: text, field: "/from") }
            ?? ClockTime.now()
        let seconds = Int64((end - start).rounded())
        let parts = clock.difference(from: min(start, end), to: max(start, end))
        return Output(
            days: parts.day, hours: parts.hour, minutes: parts.minute, isPast: end < start,
            from: clock.iso8601(start), to: clock.iso8601(end), seconds: parts.second,
            totalDays: (Double(seconds) / 864).rounded() / 100, totalHours: (Double(seconds) / 36).rounded() / 100,
            totalMinutes: seconds / 60, totalSeconds: seconds)
    }
}
