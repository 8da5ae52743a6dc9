/// A PERIOD value (RFC 5545 section 3.3.9), as `RDATE;VALUE=PERIOD` lists them: a start and either an end
/// (`19960403T020000Z/19960403T040000Z`) or a duration (`19960404T010000Z/PT3H`).
public struct ICalPeriod: Sendable, Equatable {
    public var start: ICalDateValue
    public var end: ICalDateValue?
    public var duration: ICalDuration?

    /// Every period of `property`'s comma-separated list, each with the property's `TZID`.
    /// - Throws: ``ICalendarError`` at the property's line when a value is not a period.
    public static func list(_ property: ContentLine) throws(ICalendarError) -> [ICalPeriod] {
        var periods: [ICalPeriod] = []
        for part in property.value.split(separator: ",") {
            let pieces = part.split(separator: "/", maxSplits: 1).map { String($0).trimmingSpaces }
            guard pieces.count == 2 else {
                throw ICalendarError(
                    line: property.line, column: property.name.count + 2,
                    message: "\(property.name) value \"\(part)\" is not a period",
                    remedy: "write a period as 19960403T020000Z/19960403T040000Z or 19960403T020000Z/PT2H")
            }
            let tzid = property.parameter("TZID")
            let start = try ICalDateValue(text: pieces[0], tzid: tzid, property: property)
            if let duration = ICalDuration(pieces[1]) {
                periods.append(ICalPeriod(start: start, end: nil, duration: duration))
            } else {
                let end = try ICalDateValue(text: pieces[1], tzid: tzid, property: property)
                periods.append(ICalPeriod(start: start, end: end, duration: nil))
            }
        }
        return periods
    }
}
