extension ICalendarDocument {
    /// The VEVENTs of the VCALENDAR.
    /// - Throws: ``ICalendarError`` for the first event that cannot be read.
    public func events() throws(ICalendarError) -> [ICalEvent] {
        var events: [ICalEvent] = []
        for component in calendar.components where component.name == "VEVENT" {
            events.append(try ICalEvent(component))
        }
        return events
    }

    /// Every occurrence overlapping `range` (seconds since the epoch), in order: recurring events
    /// expanded, an occurrence replaced by its RECURRENCE-ID override, cancelled ones left out. Of an
    /// event's occurrences that began over a week before the range and last into it, only the latest
    /// ``ICalEvent/carriedOccurrenceLimit`` are listed, and a COUNT rule with BY parts is not followed
    /// further than ``RecurrenceRule/countedWalkLimit`` periods (see ``occurrences(in:zones:warnings:)``).
    public func occurrences(in range: Range<Int64>, zones: ICalZoneCatalog) throws(ICalendarError)
        -> [ICalOccurrence]
    {
        var warnings: [String] = []
        return try occurrences(in: range, zones: zones, warnings: &warnings)
    }

    /// ``occurrences(in:zones:)``, appending to `warnings` one line for each event of which occurrences
    /// were left out, naming the event, its line, what was left out and how to fix it: more than
    /// ``ICalEvent/carriedOccurrenceLimit`` began before the range and last into it, or a COUNT rule with BY
    /// parts would have to be counted further than ``RecurrenceRule/countedWalkLimit`` periods.
    public func occurrences(in range: Range<Int64>, zones: ICalZoneCatalog, warnings: inout [String])
        throws(ICalendarError) -> [ICalOccurrence]
    {
        let events = try events()
        var overridden = Set<String>()
        for event in events {
            if let id = event.recurrenceID, let uid = event.uid {
                overridden.insert("\(uid)@\(try zones.instant(id, line: event.component.line))")
            }
        }
        var result: [ICalOccurrence] = []
        for event in events {
            var warning: String?
            let occurrences = try event.occurrences(overlapping: range, zones: zones, bounded: true, warning: &warning)
            if let warning { warnings.append("line \(event.component.line): \(warning)") }
            for occurrence in occurrences where !occurrence.event.isCancelled {
                if event.recurrenceID == nil, let uid = event.uid, overridden.contains("\(uid)@\(occurrence.start)") {
                    continue
                }
                result.append(occurrence)
            }
        }
        return result.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// The component of kind `name` (e.g. VEVENT) whose UID is `uid`, without a RECURRENCE-ID.
    public func component(_ name: String, uid: String) -> ICalComponent? {
        calendar.components.first {
            $0.name == name && $0.property("UID")?.value.trimmingSpaces == uid && $0.property("RECURRENCE-ID") == nil
        }
    }
}

extension ICalendarDocument {
    /// Whether the VCALENDAR has a VTIMEZONE named `tzid`, so times can be written with that TZID.
    public func carriesTimeZone(_ tzid: String) -> Bool {
        calendar.components.contains { $0.name == "VTIMEZONE" && $0.property("TZID")?.value.trimmingSpaces == tzid }
    }

    /// A UTC time as it is best written to this file: as wall-clock time with `zone`'s TZID when the file
    /// carries a VTIMEZONE of that name (calendar programs then show it in that zone), else unchanged.
    public func preferredValue(_ value: ICalDateValue, zone: any ZoneRules) -> ICalDateValue {
        guard value.kind == .utc, carriesTimeZone(zone.identifier) else { return value }
        return ICalDateValue(zone.local(atUTC: value.local.secondsSinceEpoch), .zoned(zone.identifier))
    }
}
