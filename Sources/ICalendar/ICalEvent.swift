/// A VEVENT read for listing: its text fields, start, end or duration, and recurrence.
public struct ICalEvent: Sendable {
    /// The component as read (everything it holds, including what this view ignores).
    public let component: ICalComponent
    public let uid: String?
    public let summary: String?
    public let location: String?
    public let notes: String?
    public let start: ICalDateValue
    public let end: ICalDateValue?
    public let duration: ICalDuration?
    public let rule: RecurrenceRule?
    public let extraDates: [ICalDateValue]
    public let exceptionDates: [ICalDateValue]
    /// Set on an override of one occurrence of a recurring event.
    public let recurrenceID: ICalDateValue?
    /// `TRANSPARENT` events do not block time (RFC 5545 TRANSP).
    public let isTransparent: Bool
    public let isCancelled: Bool

    /// Reads a VEVENT.
    /// - Throws: ``ICalendarError`` at the event's line when DTSTART is missing, or at a property's line
    ///   when a date, duration or rule is malformed.
    public init(_ component: ICalComponent) throws(ICalendarError) {
        self.component = component
        guard let startLine = component.property("DTSTART") else {
            throw ICalendarError(
                line: component.line, column: 1, message: "\(component.name) has no DTSTART",
                remedy: "add DTSTART (e.g. DTSTART:20261201T090000Z) to the event")
        }
        start = try ICalDateValue(startLine)
        end = try component.property("DTEND").map { line throws(ICalendarError) in try ICalDateValue(line) }
        if let line = component.property("DURATION") {
            guard let value = ICalDuration(line.value) else {
                throw ICalendarError(
                    line: line.line, column: 10, message: "DURATION \"\(line.value)\" is not a duration",
                    remedy: "write it as PT1H30M, P1D or P1W")
            }
            duration = value
        } else {
            duration = nil
        }
        rule = try component.property("RRULE").map { line throws(ICalendarError) in try RecurrenceRule(line) }
        var extra: [ICalDateValue] = []
        for line in component.properties(named: "RDATE") where line.parameter("VALUE") != "PERIOD" {
            extra += try ICalDateValue.list(line)
        }
        extraDates = extra
        var exceptions: [ICalDateValue] = []
        for line in component.properties(named: "EXDATE") { exceptions += try ICalDateValue.list(line) }
        exceptionDates = exceptions
        recurrenceID = try component.property("RECURRENCE-ID").map { line throws(ICalendarError) in
            try ICalDateValue(line)
        }
        uid = component.property("UID")?.value.trimmingSpaces
        summary = component.property("SUMMARY")?.text
        location = component.property("LOCATION")?.text
        notes = component.property("DESCRIPTION")?.text
        isTransparent = component.property("TRANSP")?.value.trimmingSpaces.uppercased() == "TRANSPARENT"
        isCancelled = component.property("STATUS")?.value.trimmingSpaces.uppercased() == "CANCELLED"
    }

    /// The line of DTSTART, for errors about the start's zone.
    var startLine: Int { component.property("DTSTART")?.line ?? component.line }
}

/// One occurrence of an event: its instants and the event it comes from.
public struct ICalOccurrence: Sendable {
    public let event: ICalEvent
    /// Seconds since the epoch.
    public let start: Int64
    public let end: Int64
    /// The wall-clock start in the event's own zone.
    public let localStart: CivilDateTime
    /// The zone the event's times are in (`UTC`, a TZID, or the floating zone's id).
    public let zone: String
}

extension ICalEvent {
    /// The occurrences that overlap `range` (seconds since the epoch), in order: the event itself, or
    /// for a recurring event its RRULE and RDATE instances without the EXDATE ones.
    /// - Throws: ``ICalendarError`` for a TZID neither the file nor the system defines.
    public func occurrences(overlapping range: Range<Int64>, zones: ICalZoneCatalog) throws(ICalendarError)
        -> [ICalOccurrence]
    {
        let zone = try zones.zone(of: start, line: startLine)
        let kind = start.kind
        let startInstant = zone.utcSeconds(forLocal: start.local)
        // How long each occurrence lasts: nominal days (wall clock) plus exact seconds.
        var days = 0
        var seconds = 0
        if let duration {
            (days, seconds) = (duration.days, duration.seconds)
        } else if let end {
            if start.isDate || end.isDate {
                days = end.local.daysSinceEpoch - start.local.daysSinceEpoch
            } else {
                seconds = Int(try zones.instant(end, line: component.property("DTEND")?.line ?? 0) - startInstant)
            }
        } else if start.isDate {
            days = 1
        }
        func occurrence(_ local: CivilDateTime) -> ICalOccurrence {
            let begin = zone.utcSeconds(forLocal: local)
            let finish = zone.utcSeconds(forLocal: local.adding(days: days)) + Int64(seconds)
            return ICalOccurrence(
                event: self, start: begin, end: max(finish, begin), localStart: local,
                zone: kind == .utc ? "UTC" : zone.identifier)
        }
        var locals: [CivilDateTime]
        if let rule {
            let limit = zone.local(atUTC: range.upperBound).adding(days: 1)
            let until = rule.until.flatMap { UntilValue(text: $0) }
            locals = rule.expand(from: start.local, through: limit) { candidate in
                guard let until else { return false }
                return until.isUTC
                    ? zone.utcSeconds(forLocal: candidate) > until.local.secondsSinceEpoch : candidate > until.local
            }
            if locals.first != start.local { locals.insert(start.local, at: 0) }
        } else {
            locals = [start.local]
        }
        for extra in extraDates {
            let instant = try zones.instant(extra, line: startLine)
            locals.append(zone.local(atUTC: instant))
        }
        // EXDATE: a date removes that day's occurrence, a time the occurrence at that instant.
        let excludedDays = Set(exceptionDates.filter(\.isDate).map(\.local.daysSinceEpoch))
        var excludedInstants = Set<Int64>()
        for exception in exceptionDates where !exception.isDate {
            excludedInstants.insert(try zones.instant(exception, line: startLine))
        }
        // Occurrences that end days before the range need no zone arithmetic (wall clock and UTC differ by
        // less than a day).
        let earliest = range.lowerBound - Int64(days + 2) * 86_400 - Int64(max(seconds, 0))
        locals.removeAll { $0.secondsSinceEpoch < earliest }
        var seen = Set<Int64>()
        return locals.map(occurrence).filter { item in
            if excludedDays.contains(item.localStart.daysSinceEpoch) || excludedInstants.contains(item.start) {
                return false
            }
            guard seen.insert(item.start).inserted else { return false }
            return (item.end > range.lowerBound && item.start < range.upperBound)
                || (item.start == item.end && range.contains(item.start))
        }.sorted { $0.start < $1.start }
    }
}
