import SkillSDK

/// Schemas shared by the clock skills.
enum ClockSchema {
    /// An IANA time zone name such as "Europe/Paris", a city such as "New York", or an abbreviation.
    static let timeZonePattern = "^[A-Za-z][A-Za-z0-9_+ .-]*(/[A-Za-z0-9_+ .-]+)*$"

    /// A date, or a date and time with an optional UTC offset: "2026-03-01", "2026-03-01T09:30",
    /// "2026-03-01T09:30:00+01:00", "2026-03-01T08:30:00Z".
    static let dateTimePattern =
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|z|[+-][0-9]{2}:[0-9]{2})?)?$"

    static func timeZone(_ description: String) -> SchemaProperty {
        .string(description, pattern: timeZonePattern, maxLength: 64)
    }

    static func dateTime(_ description: String) -> SchemaProperty {
        .string(description, pattern: dateTimePattern)
    }

    /// Units of date arithmetic, smallest first.
    static let units = ["seconds", "minutes", "hours", "days", "weeks", "months", "years"]
}
