import SkillSDK

/// `clock.now`: the current date and time in a time zone.
struct Now: SynchronousSkill {
    struct Arguments: Decodable {
        var timezone: String?
    }

    let name = "now"
    let title = "Current time"
    let description = """
        The current date, time and weekday in a time zone (UTC when none is given). Use it to answer "what \
        time/day is it" and to anchor relative dates such as "tomorrow". Not for arithmetic on other dates \
        (use clock.add) and not for converting a given time between zones (use clock.convert).
        """
    let parameters = ParameterSchema.object(
        [
            "timezone": ClockSchema.timeZone(
                "Time zone: IANA name (Europe/Paris), city (Tokyo) or abbreviation (PST); UTC if absent")
        ],
        required: [])
    let timeout = 5.0
    let summary: String? = "It is {time} on {weekday}, {date} ({timezone})."
    let examples = [
        "what time is it in {timezone}", "current time in {timezone}", "what day is it today",
        "what is the date", "time now",
    ]

    func run(_ arguments: Arguments, context: SkillContext) throws -> ClockReading {
        let clock = try ClockTime(zoneNamed: arguments.timezone, field: "/timezone")
        return clock.describe(ClockTime.now())
    }
}
