import Synchronization

/// The offsets a `VTIMEZONE` component describes: its STANDARD and DAYLIGHT observances, each starting at
/// DTSTART and repeating by RRULE or RDATE (RFC 5545 section 3.6.5).
public struct VTimeZoneRules: ZoneRules {
    struct Observance: Sendable {
        var start: CivilDateTime
        var offsetFrom: Int
        var offsetTo: Int
        var rule: RecurrenceRule?
        var dates: [CivilDateTime]
    }

    public let identifier: String
    let observances: [Observance]
    /// The system zone of the same name, for instants before the first onset the VTIMEZONE lists
    /// (exports often carry only recent rules).
    let fallback: SystemZone?
    /// The onsets of each year asked for so far (shared by copies of these rules).
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
            observances.append(Observance(start: start, offsetFrom: from, offsetTo: to, rule: rule, dates: dates))
        }
        guard !observances.isEmpty else {
            throw ICalendarError(
                line: component.line, column: 1, message: "VTIMEZONE \(tzid) has no STANDARD or DAYLIGHT block",
                remedy: "add at least one STANDARD block with DTSTART, TZOFFSETFROM and TZOFFSETTO")
        }
        self.observances = observances
        fallback = SystemZone(tzid)
    }

    /// Where to start expanding a yearly rule: a couple of years before `year` instead of its DTSTART
    /// (often 1601), which gives the same latest onset without walking every year since.
    static func recentStart(_ observance: Observance, rule: RecurrenceRule, year: Int) -> CivilDateTime {
        let start = observance.start
        guard rule.frequency == .yearly, rule.count == nil, !rule.byMonth.isEmpty, year - 2 > start.year else {
            return start
        }
        let skipped = (year - 2 - start.year) / rule.interval * rule.interval
        return CivilDateTime(
            year: start.year + skipped, month: 1, day: 1, hour: start.hour, minute: start.minute, second: start.second)
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
        var seconds = (numbers[0] * 10 + numbers[1]) * 3600 + (numbers[2] * 10 + numbers[3]) * 60
        if numbers.count == 6 { seconds += numbers[4] * 10 + numbers[5] }
        return sign == "-" ? -seconds : seconds
    }

    public func offset(atUTC seconds: Int64) -> Int {
        let year = CivilDateTime(secondsSinceEpoch: seconds).year
        let known = onsetCache.onsets(ofYear: year) { self.onsets(throughEndOf: year) }
        var best: (onset: Int64, offset: Int)?
        for (utc, offset) in known where utc <= seconds {
            if best.map({ utc > $0.onset }) ?? true { best = (utc, offset) }
        }
        if let best { return best.offset }
        if let fallback { return fallback.offset(atUTC: seconds) }
        return observances.min { $0.start < $1.start }!.offsetFrom
    }

    /// Every onset (UTC) up to the end of `year` that could decide an instant in it, with the offset it
    /// starts, in observance order. Expanding the rules is the costly part, so it is done once per year
    /// (``OnsetCache``): listing a long recurring event asks for thousands of instants of the same years.
    private func onsets(throughEndOf year: Int) -> [(Int64, Int)] {
        let limit = CivilDateTime(year: year + 1, month: 1, day: 1)
        var result: [(Int64, Int)] = []
        for observance in observances {
            var onsets = observance.dates + [observance.start]
            if let rule = observance.rule {
                let until = rule.until.flatMap { UntilValue(text: $0) }
                onsets += rule.expand(from: Self.recentStart(observance, rule: rule, year: year), through: limit) {
                    candidate in
                    guard let until else { return false }
                    return until.isUTC
                        ? candidate.secondsSinceEpoch - Int64(observance.offsetFrom) > until.local.secondsSinceEpoch
                        : candidate > until.local
                }
            }
            for onset in onsets {
                result.append((onset.secondsSinceEpoch - Int64(observance.offsetFrom), observance.offsetTo))
            }
        }
        return result
    }
}

/// A VTIMEZONE's onsets per year, computed once (found by fuzzing: a weekly event from the year 1013 made
/// every one of its 52,800 occurrences expand the zone's rules again, 40 s for one listing).
final class OnsetCache: Sendable {
    private let years = Mutex<[Int: [(Int64, Int)]]>([:])

    /// The onsets of `year`, from `compute` the first time.
    func onsets(ofYear year: Int, _ compute: () -> [(Int64, Int)]) -> [(Int64, Int)] {
        if let known = years.withLock({ $0[year] }) { return known }
        let computed = compute()
        years.withLock { $0[year] = computed }
        return computed
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
