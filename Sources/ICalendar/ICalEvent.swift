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
        var warning: String?
        return try occurrences(overlapping: range, zones: zones, bounded: false, warning: &warning)
    }

    /// The most occurrences of one event that began before a range and last into it which
    /// ``ICalendarDocument/occurrences(in:zones:warnings:)`` lists: the latest ones. Only an event whose
    /// occurrences last longer than thousands of its recurrence intervals has more (found by fuzzing: a
    /// weekly event from the year 1013 to 2026 has 52,800 occurrences lasting into 2026).
    public static let carriedOccurrenceLimit = 1_000

    /// ``occurrences(overlapping:zones:)``, when `bounded`, at a cost bounded by the range: listing at most
    /// ``carriedOccurrenceLimit`` of the occurrences that began over a week before `range` (the latest
    /// ones), and giving up on a COUNT rule that would have to be walked further than
    /// ``RecurrenceRule/countedWalkLimit`` periods to reach the range. Either sets `warning` to what was
    /// left out and how to fix it.
    func occurrences(
        overlapping range: Range<Int64>, zones: ICalZoneCatalog, bounded: Bool, warning: inout String?
    ) throws(ICalendarError) -> [ICalOccurrence] {
        let carriedLimit = bounded ? ICalEvent.carriedOccurrenceLimit : Int.max
        var cut: CivilDateTime?
        defer {
            if let cut {
                warning = "occurrences of \"\(summary ?? uid ?? "event")\" that began before \(cut) are not listed, "
                    + "though they may last into the range (each lasts longer than \(carriedLimit) of its "
                    + "repetitions); check the event's DTSTART, DTEND or DURATION"
            }
        }
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
            let finish = (days == 0 ? begin : zone.utcSeconds(forLocal: local.adding(days: days))) + Int64(seconds)
            return ICalOccurrence(
                event: self, start: begin, end: max(finish, begin), localStart: local,
                zone: kind == .utc ? "UTC" : zone.identifier)
        }
        // Occurrences that end days before the range need no zone arithmetic (wall clock and UTC differ by
        // less than a day), and a rule without COUNT need not even be expanded before them.
        let earliest = range.lowerBound - Int64(days + 2) * 86_400 - Int64(max(seconds, 0))
        var locals: [CivilDateTime]
        if let rule {
            let limit = zone.local(atUTC: range.upperBound).adding(days: 1)
            let until = rule.until.flatMap { UntilValue(text: $0) }
            var notBefore = CivilDateTime(secondsSinceEpoch: earliest)
            // Without COUNT (or with one counted exactly), the recurrence periods long before the range
            // need not be walked either: the last `carriedLimit` before it hold all the carried occurrences
            // that will be listed.
            if rule.count == nil || rule.hasOneOccurrencePerPeriod(from: start.local), carriedLimit < Int.max {
                let carriedFrom = rule.startOfPeriod(
                    carriedLimit + 1, periodsBefore: zone.local(atUTC: range.lowerBound).adding(days: -7),
                    from: start.local)
                if carriedFrom > notBefore, carriedFrom > start.local {
                    notBefore = carriedFrom
                    cut = carriedFrom
                }
            }
            let isPastUntil = { (candidate: CivilDateTime) -> Bool in
                guard let until else { return false }
                guard until.isUTC else { return candidate > until.local }
                // No zone is 5 days off UTC (a VTIMEZONE offset has at most two digits of hours): earlier
                // candidates need no zone arithmetic.
                let utc = until.local.secondsSinceEpoch
                if candidate.secondsSinceEpoch < utc - 432_000 { return false }
                return zone.utcSeconds(forLocal: candidate) > utc
            }
            if bounded, let count = rule.count, !rule.hasOneOccurrencePerPeriod(from: start.local),
                rule.periods(from: start.local, to: zone.local(atUTC: range.lowerBound)) > rule.countedWalkLimit
            {
                // COUNT has to be followed from DTSTART, and the range is further than it is walked: exact
                // only when COUNT (or UNTIL) ends the rule before that.
                let end = rule.startOfPeriod(rule.countedWalkLimit, from: start.local)
                locals = rule.expand(from: start.local, through: end, isPastUntil: isPastUntil)
                if locals.count < min(count, RecurrenceRule.occurrenceLimit), !(rule.until != nil && isPastUntil(end)) {
                    warning = "\"\(summary ?? uid ?? "event")\" repeats with COUNT=\(count) and BY parts from "
                        + "\(start.local.dateText), more than \(rule.countedWalkLimit) repetitions before the range; "
                        + "its occurrences are not counted that far and not listed: move DTSTART closer or use UNTIL"
                    return []
                }
            } else {
                locals = rule.expand(from: start.local, through: limit, notBefore: notBefore, isPastUntil: isPastUntil)
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
        locals.removeAll { $0.secondsSinceEpoch < earliest }
        // Occurrences that began well before the range and still last into it: only the latest ones, so
        // that the zone arithmetic below is bounded by the range asked for, not by the event's age.
        let carriedBefore = zone.local(atUTC: range.lowerBound).adding(days: -7)
        if locals.count > carriedLimit {
            locals.sort()
            let carried = locals.partitioningIndex { $0 >= carriedBefore }
            if carried > carriedLimit {
                locals.removeFirst(carried - carriedLimit)
                cut = locals.first
            }
        }
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

extension Array where Element == CivilDateTime {
    /// The index of the first element for which `isAtOrAfter` holds, in an array sorted so that it holds
    /// for a suffix.
    func partitioningIndex(_ isAtOrAfter: (CivilDateTime) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
