import SkillSDK

/// `clock.add`: a date plus (or minus) an amount of seconds … years.
struct AddTime: SynchronousSkill {
    struct Arguments: Decodable {
        var start: String?
        var amount: Int
        var unit: String
        var timezone: String?
    }

    let name = "add"
    let title = "Add to a date"
    let description = """
        Date arithmetic: the date and time that is a given amount of minutes, hours, days, weeks, months or \
        years after (or, with a negative amount, before) a start date, now when none is given. Months and \
        years follow the calendar (Jan 31 + 1 month = Feb 28/29) and days keep the wall-clock time across \
        daylight-saving changes. Not for the span between two dates (use clock.difference).
        """
    let parameters = ParameterSchema.object(
        [
            "amount": .integer("How many units to add; negative to go back", minimum: -1_000_000, maximum: 1_000_000),
            "unit": .string("The unit of amount", oneOf: ClockSchema.units),
            "start": ClockSchema.dateTime("Start date, e.g. 2026-03-01 or 2026-03-01T09:30; now if absent"),
            "timezone": ClockSchema.timeZone(
                "Time zone (IANA name, city or abbreviation) for the start and the result; UTC if absent"),
        ], required: ["amount", "unit"])
    let timeout = 5.0
    let summary: String? = "That is {weekday}, {date} at {time} ({timezone})."
    let examples = [
        "what is the date in {amount} {unit}", "add {amount} {unit} to {start}",
        "what time will it be in {amount} {unit} in {timezone}", "{amount} {unit} from now",
        "what date is {amount} {unit} after {start}",
    ]

    func run(_ arguments: Arguments, context: SkillContext) throws -> ClockResult {
        let clock = try ClockTime(zoneNamed: arguments.timezone, field: "/timezone")
        let start =
            try arguments.start.map { text throws(SkillError) in try clock.date(from: text, field: "/start") } ?? ClockTime.now()
        guard let result = clock.adding(arguments.amount, arguments.unit, to: start) else {
            throw SkillError.invalidArguments(
                field: "/unit", message: "unknown unit \"\(arguments.unit)\"",
                remedy: "use one of \(ClockSchema.units.joined(separator: ", "))")
        }
        return ClockResult(reading: clock.describe(result), extras: [("start", clock.iso8601(start))])
    }
}
