import Synchronization

/// The offsets a `VTIMEZONE` component describes: its STANDARD and DAYLIGHT observances, each starting at
/// DTSTART and repeating by RRULE or RDATE (RFC 5545 section 3.6.5).
public struct VTimeZoneRules: ZoneRules {
    struct Observance: Sendable {
        var start: CivilDateTime
        var offsetFrom: Int
        var offsetTo: Int
        var rule: RecurrenceRule?
        /// The rule's UNTIL, read once.
        var until: UntilValue?
        /// DTSTART and the RDATEs, sorted.
        var fixedOnsets: [CivilDateTime]
    }

    public let identifier: String
    let observances: [Observance]
    /// The system zone of the same name, for instants before the first onset the VTIMEZONE lists
    /// (exports often carry only recent rules).
    let fallback: SystemZone?
    /// What the rules' expansions found so far (shared by copies of these rules).
    let onsetCache = OnsetCache()

    /// Reads a VTIMEZONE component.
    /// - Throws: ``ICalendarError`` naming the line when TZID, an observance's DTSTART or its offsets are
    ///   missing or malformed.
    public init(_ component: ICalComponent) throws(ICalendarError) {
        guard let tzid = component.property("TZID")?.value.trimmingSpaces, !tzid.isEmpty else {
            throw ICalendarError(
                line: component.line, column: 1, message: "VTIMEZONE has no TZID",
                remedy: "add TZID:<zone name> to the VTIMEZONE")
        }
        identifier = tzid
        var observances: [Observance] = []
        for part in component.components where part.name == "STANDARD" || part.name == "DAYLIGHT" {
            func required(_ name: String) throws(ICalendarError) -> ContentLine {
                guard let property = part.property(name) else {
                    throw ICalendarError(
                        line: part.line, column: 1, message: "\(part.name) of VTIMEZONE \(tzid) has no \(name)",
                        remedy: "add \(name) to the \(part.name) block")
                }
                return property
            }
            let start = try ICalDateValue(try required("DTSTART")).local
            let from = try VTimeZoneRules.offset(try required("TZOFFSETFROM"))
            let to = try VTimeZoneRules.offset(try required("TZOFFSETTO"))
            let rule = try part.property("RRULE").map { line throws(ICalendarError) in try RecurrenceRule(line) }
            var dates: [CivilDateTime] = []
            for line in part.properties(named: "RDATE") {
                dates += try ICalDateValue.list(line).map(\.local)
            }
            observances.append(
                Observance(
                    start: start, offsetFrom: from, offsetTo: to, rule: rule,
                    until: rule?.until.flatMap { UntilValue(text: $0) }, fixedOnsets: (dates + [start]).sorted()))
        }
        guard !observances.isEmpty else {
            throw ICalendarError(
                line: component.line, column: 1, message: "VTIMEZONE \(tzid) has no STANDARD or DAYLIGHT block",
                remedy: "add at least one STANDARD block with DTSTART, TZOFFSETFROM and TZOFFSETTO")
        }
        self.observances = observances
        fallback = SystemZone(tzid)
    }

    /// Reads `+0100`, `-0500`, `+053000`.
    static func offset(_ property: ContentLine) throws(ICalendarError) -> Int {
        let text = property.value.trimmingSpaces
        let digits = text.dropFirst()
        guard let sign = text.first, sign == "+" || sign == "-", digits.count == 4 || digits.count == 6,
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            throw ICalendarError(
                line: property.line, column: property.name.count + 2,
                message: "\(property.name) value \"\(text)\" is not a UTC offset",
                remedy: "write it as +HHMM or -HHMM, e.g. +0100")
        }
        let numbers = Array(digits).map { $0.wholeNumberValue! }
        let hours = numbers[0] * 10 + numbers[1]
        let minutes = numbers[2] * 10 + numbers[3]
        let extra = numbers.count == 6 ? numbers[4] * 10 + numbers[5] : 0
        guard hours < 24, minutes < 60, extra < 60 else {
            throw ICalendarError(
                line: property.line, column: property.name.count + 2,
                message: "\(property.name) value \"\(text)\" is not a UTC offset (at most 23 hours 59 minutes)",
                remedy: "write it as +HHMM or -HHMM, e.g. +0100")
        }
        let seconds = hours * 3600 + minutes * 60 + extra
        return sign == "-" ? -seconds : seconds
    }

    public func offset(atUTC seconds: Int64) -> Int {
        var best: (utc: Int64, offset: Int)?
        for index in observances.indices {
            guard let utc = latestOnset(of: index, atOrBefore: seconds) else { continue }
            // The latest onset decides; on a tie, the observance listed first.
            if best.map({ utc > $0.utc }) ?? true { best = (utc, observances[index].offsetTo) }
        }
        if let best { return best.offset }
        if let fallback { return fallback.offset(atUTC: seconds) }
        return observances.min { $0.start < $1.start }!.offsetFrom
    }
}

/// An RRULE's UNTIL: a date (inclusive: the whole day) or a date-time, UTC or not.
struct UntilValue {
    var local: CivilDateTime
    var isUTC: Bool

    init?(text: String) {
        guard let value = try? ICalDateValue(text: text, tzid: nil, property: ContentLine("UNTIL", value: text))
        else { return nil }
        local = value.local
        if value.kind == .date { (local.hour, local.minute, local.second) = (23, 59, 59) }
        isUTC = value.kind == .utc
    }
}
