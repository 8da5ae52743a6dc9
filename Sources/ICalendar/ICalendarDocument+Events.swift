extension ICalendarDocument {
    /// The VEVENTs of the file that can be read (in every VCALENDAR, and any outside or nested in other
    /// components), in file order; `skipped` gets one line for each that cannot (no DTSTART, or one that
    /// is not a date).
    public func events(skipped: inout [ICalendarError]) -> [ICalEvent] {
        var events: [ICalEvent] = []
        for component in all("VEVENT") {
            do {
                events.append(try ICalEvent(component))
            } catch {
                let title = component.property("SUMMARY").map { " \"\($0.text)\"" } ?? ""
                skipped.append(
                    ICalendarError(
                        line: error.line, column: error.column,
                        message: "skipped the event\(title) of line \(component.line): \(error.message)",
                        remedy: error.remedy))
            }
        }
        return events
    }

    /// The VEVENTs of the file that can be read (see ``events(skipped:)``).
    public func events() -> [ICalEvent] {
        var skipped: [ICalendarError] = []
        return events(skipped: &skipped)
    }

    /// Every occurrence overlapping `range` (seconds since the epoch), in order: recurring events
    /// expanded, an occurrence replaced by its RECURRENCE-ID override, cancelled ones left out, the
    /// components of one UID read as ``EventSeries`` says. Of an event's occurrences that began over a
    /// week before the range and last into it, only the latest ``ICalEvent/carriedOccurrenceLimit`` are
    /// listed, and a COUNT rule with BY parts is not followed further than
    /// ``RecurrenceRule/countedWalkLimit`` periods (see ``occurrences(in:zones:warnings:)``).
    public func occurrences(in range: Range<Int64>, zones: ICalZoneCatalog) -> [ICalOccurrence] {
        var warnings: [String] = []
        return occurrences(in: range, zones: zones, warnings: &warnings)
    }

    /// ``occurrences(in:zones:)``, appending to `warnings` one line (`line N: …`) for each thing the
    /// listing had to read past or leave out, with how to fix it: the lines and components of the file
    /// that cannot be read, the events of a UID that a later revision replaces, a listed event in a time
    /// zone neither the file nor the system defines (read in the user's zone), and occurrences left out
    /// because more than ``ICalEvent/carriedOccurrenceLimit`` began before the range and last into it, or
    /// because a COUNT rule with BY parts would have to be counted further than
    /// ``RecurrenceRule/countedWalkLimit`` periods.
    public func occurrences(in range: Range<Int64>, zones: ICalZoneCatalog, warnings: inout [String])
        -> [ICalOccurrence]
    {
        var problems = skipped + zones.skipped
        let events = events(skipped: &problems)
        for event in events { problems += event.skipped }
        var dropped: [(ICalEvent, ICalEvent)] = []
        let series = EventSeries.grouping(events, dropped: &dropped)
        for (old, new) in dropped {
            problems.append(
                ICalendarError(
                    line: old.component.line, column: 1,
                    message: "the event \(old.shownName) has the UID of the event of line \(new.component.line), "
                        + "which \(new.sequence > old.sequence ? "is a later revision (SEQUENCE \(new.sequence))" : "comes first"); only that one is listed",
                    remedy: "give each event a UID of its own, or remove the outdated copy"))
        }
        warnings += problems.sorted { $0.line < $1.line }.map { "line \($0.line): \($0.message); \($0.remedy)" }
        var result: [ICalOccurrence] = []
        var unknownZones = Set<Int>()
        for item in series {
            var warning: String?
            let occurrences = item.occurrences(overlapping: range, zones: zones, bounded: true, warning: &warning)
            if let warning, let line = (item.core ?? item.modifications.first)?.component.line {
                warnings.append("line \(line): \(warning)")
            }
            for occurrence in occurrences where !occurrence.event.isCancelled {
                result.append(occurrence)
                let event = occurrence.event
                if zones.isUnknown(event.start), unknownZones.insert(event.component.line).inserted {
                    warnings.append(
                        "line \(event.startLine): \(event.shownName) is in time zone \"\(event.start.timeZoneID ?? "")\", which "
                            + "neither the file nor the system defines; its times are read in your zone (\(zones.floating.identifier)); "
                            + "add a VTIMEZONE for it or use an IANA name such as Europe/Paris")
                }
            }
        }
        return result.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// The component of kind `name` (e.g. VEVENT) whose UID is `uid`, without a RECURRENCE-ID.
    public func component(_ name: String, uid: String) -> ICalComponent? {
        all(name).first {
            $0.property("UID")?.value.trimmingSpaces == uid && $0.property("RECURRENCE-ID") == nil
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
