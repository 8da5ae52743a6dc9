/// The zones one file's times are read in: its VTIMEZONE components first, then the system's zone
/// database for IANA TZIDs, and a given zone for floating times and dates.
public struct ICalZoneCatalog: Sendable {
    /// The zone floating times and all-day dates are read in (the user's zone).
    public let floating: any ZoneRules
    private let carried: [String: any ZoneRules]

    /// The zones of `document`'s VCALENDAR.
    /// - Throws: ``ICalendarError`` for a malformed VTIMEZONE whose TZID the system database does not know
    ///   either.
    public init(document: ICalendarDocument, floating: any ZoneRules) throws(ICalendarError) {
        self.floating = floating
        var carried: [String: any ZoneRules] = [:]
        for component in document.calendar.components where component.name == "VTIMEZONE" {
            do {
                let rules = try VTimeZoneRules(component)
                carried[rules.identifier] = rules
            } catch {
                let id = component.property("TZID")?.value.trimmingSpaces ?? ""
                if SystemZone(id) == nil { throw error }
            }
        }
        self.carried = carried
    }

    /// The rules for `tzid`: the file's VTIMEZONE, else the system zone of that name.
    public func rules(for tzid: String) -> (any ZoneRules)? {
        carried[tzid] ?? SystemZone(tzid)
    }

    /// The zone a value is anchored in: UTC, its TZID's zone or the floating zone.
    /// - Throws: ``ICalendarError`` at `line` for a TZID that neither the file nor the system defines.
    public func zone(of value: ICalDateValue, line: Int) throws(ICalendarError) -> any ZoneRules {
        switch value.kind {
        case .utc: return FixedOffsetZone.utc
        case .date, .floating: return floating
        case .zoned(let id):
            guard let rules = rules(for: id) else {
                throw ICalendarError(
                    line: line, column: 1, message: "time zone \"\(id)\" is neither in the file nor a known IANA zone",
                    remedy: "add a VTIMEZONE with TZID:\(id) or use an IANA name such as Europe/Paris")
            }
            return rules
        }
    }

    /// Seconds since the epoch of `value` (a date is its midnight in the floating zone).
    public func instant(_ value: ICalDateValue, line: Int) throws(ICalendarError) -> Int64 {
        try zone(of: value, line: line).utcSeconds(forLocal: value.local)
    }
}
