import SkillSDK

/// `clock.convert`: a time in one zone, shown in another.
struct ConvertTime: SynchronousSkill {
    struct Arguments: Decodable {
        var time: String
        var fromTimeZone: String?
        var toTimeZone: String

        enum CodingKeys: String, CodingKey {
            case time
            case fromTimeZone = "from_timezone"
            case toTimeZone = "to_timezone"
        }
    }

    let name = "convert"
    let title = "Convert between time zones"
    let description = """
        Shows a given date and time in another time zone, e.g. "9:30 in Tokyo is what in Paris". Times \
        without an offset are read in from_timezone (UTC if absent). Not for the current time (use clock.now).
        """
    let parameters = ParameterSchema.object(
        [
            "time": ClockSchema.dateTime("The time to convert, e.g. 2026-03-01T09:30 or 2026-03-01T09:30:00+09:00"),
            "from_timezone": ClockSchema.timeZone(
                "Time zone (IANA name, city or abbreviation) the time is written in; UTC if absent"),
            "to_timezone": ClockSchema.timeZone("Time zone (IANA name, city or abbreviation) to show the time in"),
        ], required: ["time", "to_timezone"])
    let timeout = 5.0
    let summary: String? = "{from} ({from_timezone}) is {time} on {weekday}, {date} in {timezone}."
    let examples = [
        "what is {time} in {to_timezone}", "convert {time} from {from_timezone} to {to_timezone}",
        "{time} {from_timezone} in {to_timezone} time", "when is {time} in {to_timezone}",
        "convert {time} to {to_timezone}", "{time} {from_timezone} time in {to_timezone}",
    ]

    func run(_ arguments: Arguments, context: SkillContext) throws -> ClockResult {
        let source = try ClockTime(zoneNamed: arguments.fromTimeZone, field: "/from_timezone")
        let target = try ClockTime(zoneNamed: arguments.toTimeZone, field: "/to_timezone")
        let date = try source.date(from: arguments.time, field: "/time")
        return ClockResult(
            reading: target.describe(date),
            extras: [("from", source.iso8601(date)), ("from_timezone", source.zoneName)])
    }
}
