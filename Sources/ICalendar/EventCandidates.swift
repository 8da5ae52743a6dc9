/// One start an event's recurrence produces (DTSTART, an RRULE occurrence, an RDATE), before EXDATEs and
/// overrides are applied.
struct EventCandidate {
    let event: ICalEvent
    /// The wall-clock start in the zone the event repeats in.
    let local: CivilDateTime
    let start: Int64
    let end: Int64
    /// The keys overrides and EXDATEs name it by (``RecurrenceKeys``).
    let keys: [Int64]
    /// The zone the event repeats in.
    let rules: any ZoneRules
    /// The zone's name in results.
    let zoneName: String

    var occurrence: ICalOccurrence {
        ICalOccurrence(event: event, start: start, end: end, localStart: local, zone: zoneName)
    }
}

extension ICalEvent {
    /// How long each occurrence lasts, as nominal days (wall clock) plus exact seconds: DTEND less DTSTART
    /// (DTEND wins over DURATION, as other readers take it), else DURATION, else a day for a date and
    /// nothing for a time. An end before the start counts as the time between them.
    func length(zones: ICalZoneCatalog) -> (days: Int, seconds: Int) {
        if let end {
            if start.isDate || end.isDate { return (abs(end.local.daysSinceEpoch - start.local.daysSinceEpoch), 0) }
            return (0, Int(abs(zones.instant(end) - zones.instant(start))))
        }
        if let duration { return (duration.days, duration.seconds) }
        return start.isDate ? (1, 0) : (0, 0)
    }

    /// The start the occurrences repeat from: DTSTART, or DTEND when that is earlier (an event written
    /// with its end and start swapped runs between them, as other readers take it).
    func anchor(zones: ICalZoneCatalog) -> ICalDateValue {
        guard let end, end.isDate == start.isDate, zones.instant(end) < zones.instant(start) else { return start }
        return end
    }

    /// The starts of the occurrences that may overlap `range`: DTSTART (unless past the UNTIL of every
    /// rule that has one), the RRULEs' occurrences and the RDATEs, each once, without EXDATEs applied;
    /// only DTSTART when `alone` (an override is one occurrence whatever it carries).
    ///
    /// When `bounded`, at a cost bounded by the range: at most ``ICalEvent/carriedOccurrenceLimit`` of the
    /// occurrences that began over a week before `range` (the latest ones), and a COUNT rule that would
    /// have to be walked further than ``RecurrenceRule/countedWalkLimit`` periods to reach the range is
    /// given up on. Either sets `warning` to what was left out and how to fix it.
    func candidates(
        overlapping range: Range<Int64>, zones: ICalZoneCatalog, bounded: Bool, warning: inout String?,
        alone: Bool = false
    ) -> [EventCandidate] {
        if alone || (rules.isEmpty && extraDates.isEmpty && extraPeriods.isEmpty), isClearlyOutside(range) { return [] }
        let carriedLimit = bounded ? ICalEvent.carriedOccurrenceLimit : Int.max
        var cut: CivilDateTime?
        defer {
            if let cut {
                warning = "occurrences of \(shownName) that began before \(cut) are not listed, "
                    + "though they may last into the range (each lasts longer than \(carriedLimit) of its "
                    + "repetitions); check the event's DTSTART, DTEND or DURATION"
            }
        }
        let first = anchor(zones: zones)
        let zone = zones.recurrenceZone(of: first)
        let startLocal = first.kind == .utc ? zone.local(atUTC: first.local.secondsSinceEpoch) : first.local
        let aware: Bool
        switch first.kind {
        case .date: aware = false
        case .floating: aware = zones.calendarZone != nil
        case .utc: aware = true
        case .zoned: aware = !zones.isUnknown(first)
        }
        let zoneName = first.kind == .utc && zones.calendarZone == nil ? "UTC" : zone.identifier
        let (days, seconds) = length(zones: zones)
        func candidate(_ local: CivilDateTime, days: Int, seconds: Int) -> EventCandidate {
            let begin = zone.utcSeconds(forLocal: local)
            let finish = (days == 0 ? begin : zone.utcSeconds(forLocal: local.adding(days: days))) + Int64(seconds)
            let keys = aware ? [begin, local.secondsSinceEpoch] : [local.secondsSinceEpoch]
            return EventCandidate(
                event: self, local: local, start: begin, end: max(finish, begin), keys: keys, rules: zone,
                zoneName: zoneName)
        }
        if alone { return [candidate(startLocal, days: days, seconds: seconds)] }
        // Occurrences that end days before the range need no zone arithmetic (wall clock and UTC differ by
        // less than a day), and a rule without COUNT need not even be expanded before them.
        let earliest = range.lowerBound - Int64(days + 2) * 86_400 - Int64(max(seconds, 0))
        var locals: [CivilDateTime] = []
        var rulesWithUntil = 0
        var startIsPastEveryUntil = true
        for rule in rules {
            let until = rule.until.flatMap { UntilValue(text: $0) }
            let isPastUntil = { (candidate: CivilDateTime) -> Bool in
                guard let until else { return false }
                guard until.isUTC else { return candidate > until.local }
                // No zone is 5 days off UTC (a VTIMEZONE offset has at most two digits of hours): earlier
                // candidates need no zone arithmetic.
                let utc = until.local.secondsSinceEpoch
                if candidate.secondsSinceEpoch < utc - 432_000 { return false }
                return zone.utcSeconds(forLocal: candidate) > utc
            }
            if until != nil {
                rulesWithUntil += 1
                if !isPastUntil(startLocal) { startIsPastEveryUntil = false }
            }
            locals += expansion(
                of: rule, from: startLocal, zone: zone, range: range, earliest: earliest, carriedLimit: carriedLimit,
                bounded: bounded, isPastUntil: isPastUntil, cut: &cut, warning: &warning)
        }
        // DTSTART is an occurrence unless it lies past the UNTIL of every rule that has one.
        if !(rulesWithUntil > 0 && startIsPastEveryUntil) { locals.append(startLocal) }
        for extra in extraDates {
            locals.append(extra.isDate && !first.isDate ? extra.local : zone.local(atUTC: zones.instant(extra)))
        }
        locals.removeAll { $0.secondsSinceEpoch < earliest }
        // Occurrences that began well before the range and still last into it: only the latest ones, so
        // that the zone arithmetic below is bounded by the range asked for, not by the event's age.
        let carriedBefore = zone.local(atUTC: range.lowerBound).adding(days: -7)
        locals.sort()
        if locals.count > carriedLimit {
            let carried = locals.partitioningIndex { $0 >= carriedBefore }
            if carried > carriedLimit {
                locals.removeFirst(carried - carriedLimit)
                cut = locals.first
            }
        }
        var seen = Set<Int64>()
        var result: [EventCandidate] = []
        // An RDATE period gives its occurrence a length of its own, also when a rule lists that start too.
        for period in extraPeriods {
            let local = zone.local(atUTC: zones.instant(period.start))
            let periodDays: Int
            let periodSeconds: Int
            if let duration = period.duration {
                (periodDays, periodSeconds) = (duration.days, duration.seconds)
            } else if let end = period.end {
                (periodDays, periodSeconds) = (0, Int(max(0, zones.instant(end) - zones.instant(period.start))))
            } else {
                (periodDays, periodSeconds) = (days, seconds)
            }
            let item = candidate(local, days: periodDays, seconds: periodSeconds)
            guard item.end >= earliest, seen.insert(item.start).inserted else { continue }
            result.append(item)
        }
        for local in locals {
            let item = candidate(local, days: days, seconds: seconds)
            guard seen.insert(item.start).inserted else { continue }
            result.append(item)
        }
        return result.sorted { $0.start < $1.start }
    }

    /// Whether the event's one occurrence (DTSTART to DTEND, or its DURATION) lies so far outside `range`
    /// that no zone brings it in: wall-clock times are compared with three days to spare (no zone is a day
    /// and a half off UTC), so most events of a large file are passed over without zone arithmetic.
    private func isClearlyOutside(_ range: Range<Int64>) -> Bool {
        let slack: Int64 = 3 * 86_400
        let begin = start.local.secondsSinceEpoch
        var finish = begin
        if let end {
            finish = max(finish, end.local.secondsSinceEpoch)
            if end.local.secondsSinceEpoch < begin { return end.local.secondsSinceEpoch > range.upperBound + slack }
        } else if let duration {
            finish += Int64(duration.days) * 86_400 + Int64(max(0, duration.seconds))
        } else if start.isDate {
            finish += 86_400
        }
        return begin > range.upperBound + slack || finish < range.lowerBound - slack
    }

    /// One RRULE's occurrences from `start` that may overlap `range`, bounded as
    /// ``candidates(overlapping:zones:bounded:warning:alone:)`` says.
    private func expansion(
        of rule: RecurrenceRule, from start: CivilDateTime, zone: any ZoneRules, range: Range<Int64>, earliest: Int64,
        carriedLimit: Int, bounded: Bool, isPastUntil: (CivilDateTime) -> Bool, cut: inout CivilDateTime?,
        warning: inout String?
    ) -> [CivilDateTime] {
        let limit = zone.local(atUTC: range.upperBound).adding(days: 1)
        var notBefore = CivilDateTime(secondsSinceEpoch: earliest)
        // Without COUNT (or with one counted exactly), the recurrence periods long before the range need
        // not be walked either: the last `carriedLimit` before it hold all the carried occurrences that
        // will be listed.
        if rule.count == nil || rule.hasOneOccurrencePerPeriod(from: start), carriedLimit < Int.max {
            let carriedFrom = rule.startOfPeriod(
                carriedLimit + 1, periodsBefore: zone.local(atUTC: range.lowerBound).adding(days: -7), from: start)
            if carriedFrom > notBefore, carriedFrom > start {
                notBefore = carriedFrom
                cut = carriedFrom
            }
        }
        if bounded, let count = rule.count, !rule.hasOneOccurrencePerPeriod(from: start),
            rule.periods(from: start, to: zone.local(atUTC: range.lowerBound)) > rule.countedWalkLimit
        {
            // COUNT has to be followed from DTSTART, and the range is further than it is walked: exact
            // only when COUNT (or UNTIL) ends the rule before that.
            let end = rule.startOfPeriod(rule.countedWalkLimit, from: start)
            let locals = rule.expand(from: start, through: end, isPastUntil: isPastUntil)
            if locals.count < min(count, RecurrenceRule.occurrenceLimit), !(rule.until != nil && isPastUntil(end)) {
                warning = "\(shownName) repeats with COUNT=\(count) and BY parts from "
                    + "\(start.dateText), more than \(rule.countedWalkLimit) repetitions before the range; "
                    + "its occurrences are not counted that far and not listed: move DTSTART closer or use UNTIL"
                return []
            }
            return locals
        }
        return rule.expand(from: start, through: limit, notBefore: notBefore, isPastUntil: isPastUntil)
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
