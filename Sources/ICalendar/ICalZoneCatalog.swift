import Synchronization

/// The zones one file's times are read in: the system's zone database for IANA names, the file's
/// VTIMEZONE components for other names, the system's zone again for Windows names and vendor-prefixed
/// ids (``TimeZoneNames``), the calendar's `X-WR-TIMEZONE` for floating times, and the user's zone for
/// dates and for what no zone explains.
///
/// A TZID that neither the file nor the system defines is read in the user's zone (``isUnknown(_:)`` tells
/// which, so listings can say so on the events it affects); a VTIMEZONE that cannot be read is skipped
/// (``skipped``), its TZID then read as any other.
public struct ICalZoneCatalog: Sendable {
    /// The zone all-day dates are read in, and floating times when the calendar names no zone (the
    /// user's zone).
    public let floating: any ZoneRules
    /// The zone the calendar's `X-WR-TIMEZONE` names (Google Calendar exports write it): floating times
    /// are read in it, and an event's UTC times repeat by its wall clock, as Python's `x-wr-timezone`
    /// (which `recurring_ical_events` applies) reads them. Nil when absent or unknown.
    public let calendarZone: (any ZoneRules)?
    /// What could not be read: malformed VTIMEZONEs and an unknown `X-WR-TIMEZONE`, each with its line.
    public let skipped: [ICalendarError]
    private let carried: [String: any ZoneRules]
    private let resolved = ResolvedZones()

    /// The zones of `document`: every VTIMEZONE it holds (in any VCALENDAR), and the first VCALENDAR's
    /// `X-WR-TIMEZONE`.
    public init(document: ICalendarDocument, floating: any ZoneRules) {
        self.floating = floating
        var carried: [String: any ZoneRules] = [:]
        var skipped: [ICalendarError] = []
        for component in document.all("VTIMEZONE") {
            do {
                let rules = try VTimeZoneRules(component)
                if carried[rules.identifier] == nil { carried[rules.identifier] = rules }
            } catch {
                let id = component.property("TZID")?.value.trimmingSpaces ?? ""
                skipped.append(
                    ICalendarError(
                        line: error.line, column: error.column,
                        message: "skipped VTIMEZONE \(id.isEmpty ? "" : id + " ")of line \(component.line): \(error.message)",
                        remedy: error.remedy))
            }
        }
        self.carried = carried
        var calendarZone: (any ZoneRules)?
        if let property = document.calendar.property("X-WR-TIMEZONE") {
            let name = property.text.trimmingSpaces
            calendarZone = carried[name] ?? SystemZone(name)
            if calendarZone == nil, !name.isEmpty {
                skipped.append(
                    ICalendarError(
                        line: property.line, column: 15,
                        message: "X-WR-TIMEZONE \(ICalendarDocument.quoted(name)) is not a time zone; floating times are read in your zone",
                        remedy: "use an IANA name such as Europe/Paris"))
            }
        }
        self.calendarZone = calendarZone
        self.skipped = skipped
    }

    /// The rules for `tzid`, as Python's `icalendar` resolves it: the system zone when `tzid` is an IANA
    /// name the system knows (also with slashes, quotes or spaces around it); else the file's VTIMEZONE of
    /// that name; else the system zone it stands for (a Windows name, a vendor-prefixed id:
    /// ``TimeZoneNames``); nil when none knows it. The system's rules win over a VTIMEZONE of an IANA
    /// name because exports often carry only a few years of them (a VTIMEZONE `Europe/Berlin` with the
    /// 2018–2020 changes alone would keep summer time from 2020 on).
    public func rules(for tzid: String) -> (any ZoneRules)? {
        resolved.zone(tzid) {
            let cleaned = tzid.trimmingCharacters(" \t\"'/")
            if let zone = SystemZone(exactly: tzid) ?? SystemZone(exactly: cleaned) { return zone }
            return carried[tzid] ?? carried[cleaned] ?? SystemZone(tzid)
        }
    }

    /// Whether `value` names a TZID neither the file nor the system defines (so it is read in the user's zone).
    public func isUnknown(_ value: ICalDateValue) -> Bool {
        guard case .zoned(let id) = value.kind else { return false }
        return rules(for: id) == nil
    }

    /// The zone a value's wall-clock time is read in: UTC, its TZID's zone (the user's when unknown),
    /// `X-WR-TIMEZONE` or the user's zone for a floating time, the user's zone for a date.
    public func zone(of value: ICalDateValue) -> any ZoneRules {
        switch value.kind {
        case .utc: return FixedOffsetZone.utc
        case .date: return floating
        case .floating: return calendarZone ?? floating
        case .zoned(let id): return rules(for: id) ?? floating
        }
    }

    /// The zone an event starting at `value` repeats in (its RRULE's wall clock): as ``zone(of:)``, except
    /// that a UTC start repeats by the wall clock of `X-WR-TIMEZONE` when the calendar names one.
    public func recurrenceZone(of value: ICalDateValue) -> any ZoneRules {
        value.kind == .utc ? calendarZone ?? FixedOffsetZone.utc : zone(of: value)
    }

    /// Seconds since the epoch of `value` (a date is its midnight in the user's zone).
    public func instant(_ value: ICalDateValue) -> Int64 {
        zone(of: value).utcSeconds(forLocal: value.local)
    }
}

/// The zones already looked up by TZID, so each system zone is made once per catalog and keeps its
/// cache of offsets (``OffsetSpanCache``) across the instants asked.
private final class ResolvedZones: Sendable {
    private let zones = Mutex<[String: (any ZoneRules)?]>([:])

    func zone(_ tzid: String, _ resolve: () -> (any ZoneRules)?) -> (any ZoneRules)? {
        if let known = zones.withLock({ $0[tzid] }) { return known }
        let zone = resolve()
        zones.withLock { $0[tzid] = zone }
        return zone
    }
}
