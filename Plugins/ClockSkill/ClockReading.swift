/// One instant as the clock skills report it.
struct ClockReading: Encodable, Equatable {
    var iso8601: String
    var date: String
    var time: String
    var weekday: String
    var timezone: String
    var utcOffset: String
    var isDaylightSavingTime: Bool
    var unixSeconds: Int64

    enum CodingKeys: String, CodingKey {
        case iso8601, date, time, weekday, timezone
        case utcOffset = "utc_offset"
        case isDaylightSavingTime = "is_dst"
        case unixSeconds = "unix_seconds"
    }
}

/// A skill result: one reading's members at the top level (so the first ones read as a summary), then a
/// few more string members, e.g. the start of an addition.
struct ClockResult: Encodable {
    var reading: ClockReading
    var extras: [(key: String, value: String)]

    func encode(to encoder: any Encoder) throws {
        try reading.encode(to: encoder)
        var container = encoder.container(keyedBy: NamedKey.self)
        for (key, value) in extras { try container.encode(value, forKey: NamedKey(stringValue: key)) }
    }

    private struct NamedKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
