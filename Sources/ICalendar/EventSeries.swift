/// The components of one UID read as one event, as Python's `recurring_ical_events` reads them:
///
/// - the event itself is the component without RECURRENCE-ID, and of several such, the one with the
///   highest SEQUENCE (the first on a tie); the others are earlier versions and are not listed;
/// - an override (a component with RECURRENCE-ID) replaces the occurrence it names, by UTC instant or by
///   wall-clock time, and is listed once with its own start and end even when it carries an RRULE of its
///   own, as some clients write them; of several overrides of one occurrence, the highest SEQUENCE wins;
/// - an override with `RANGE=THISANDFUTURE` also moves and reshapes the occurrences after it: they start
///   as much later as it does, last as long, and show its fields;
/// - an override that carries recurrence parts of its own, has a lower SEQUENCE than the event and names
///   no occurrence of it is stale, and is not listed; any other override is listed, also when the event
///   has no occurrence at its RECURRENCE-ID or there is no event at all;
/// - EXDATE removes an occurrence (and its override) whose UTC instant or wall-clock time it names, in any
///   zone, and a date removes that day's occurrence.
struct EventSeries {
    let core: ICalEvent?
    let modifications: [ICalEvent]

    /// Groups `events` by UID (events without one stand alone), in the order each UID first appears.
    /// `dropped` gets each event that a later revision of its UID replaces, with the one that does.
    static func grouping(_ events: [ICalEvent], dropped: inout [(ICalEvent, ICalEvent)]) -> [EventSeries] {
        var groups: [(core: ICalEvent?, modifications: [ICalEvent])] = []
        var indexOfUID: [String: Int] = [:]
        for event in events {
            let index: Int
            if let uid = event.uid, let known = indexOfUID[uid] {
                index = known
            } else {
                index = groups.count
                groups.append((nil, []))
                if let uid = event.uid { indexOfUID[uid] = index }
            }
            if event.recurrenceID != nil {
                groups[index].modifications.append(event)
            } else if let current = groups[index].core {
                if event.sequence > current.sequence {
                    dropped.append((current, event))
                    groups[index].core = event
                } else {
                    dropped.append((event, current))
                }
            } else {
                groups[index].core = event
            }
        }
        return groups.map { EventSeries(core: $0.core, modifications: $0.modifications) }
    }

    /// The occurrences overlapping `range`, in order of start. When `bounded`, the cost follows the range,
    /// not the event's age (see ``ICalEvent/carriedOccurrenceLimit`` and
    /// ``RecurrenceRule/countedWalkLimit``), and `warning` says what was left out.
    func occurrences(
        overlapping range: Range<Int64>, zones: ICalZoneCatalog, bounded: Bool, warning: inout String?
    ) -> [ICalOccurrence] {
        // The override in force for each occurrence, by its keys: the highest SEQUENCE first, the first
        // on a tie.
        var chosen: [ICalEvent] = []
        var keysOfChosen: [[Int64]] = []
        var chosenByKey: [Int64: Int] = [:]
        for modification in modifications {
            let keys = RecurrenceKeys.of(modification.recurrenceID!, zones: zones)
            if let index = keys.lazy.compactMap({ chosenByKey[$0] }).first {
                if modification.sequence > chosen[index].sequence {
                    chosen[index] = modification
                    keysOfChosen[index] = keys
                    for key in keys { chosenByKey[key] = index }
                }
            } else {
                for key in keys { chosenByKey[key] = chosen.count }
                chosen.append(modification)
                keysOfChosen.append(keys)
            }
        }
        if let core, chosen.isEmpty, core.exceptionDates.isEmpty {
            // The common case: an event without overrides or exceptions.
            return core.candidates(overlapping: range, zones: zones, bounded: bounded, warning: &warning)
                .map(\.occurrence).filter { $0.overlaps(range) }
        }
        let overridden = Set(chosenByKey.keys)
        let exclusions = Exclusions(core?.exceptionDates ?? [], zones: zones)
        var result: [ICalOccurrence] = []
        if let core {
            let futures = zip(chosen, keysOfChosen).filter { $0.0.isThisAndFuture }
                .map { ThisAndFuture(override: $0.0, key: $0.1[0], zones: zones) }.sorted { $0.key < $1.key }
            // A later start or a longer occurrence moved in from outside the range; a move of more than a
            // year (which no one means) does not widen the expansion further, so that its cost stays
            // bounded by the range.
            let year = 366 * 86_400
            let before = futures.map { min(year, max(0, -$0.shift) + max(0, $0.length.seconds) + $0.length.days * 86_400) }.max() ?? 0
            let after = futures.map { min(year, max(0, $0.shift)) }.max() ?? 0
            let window = (range.lowerBound - Int64(before))..<(range.upperBound + Int64(after))
            for candidate in core.candidates(overlapping: window, zones: zones, bounded: bounded, warning: &warning) {
                if exclusions.excludes(candidate) || !overridden.isDisjoint(with: candidate.keys) { continue }
                if let future = futures.last(where: { $0.key < candidate.keys[0] }) {
                    result.append(future.occurrence(moving: candidate, zones: zones))
                } else {
                    result.append(candidate.occurrence)
                }
            }
        }
        for (modification, keys) in zip(chosen, keysOfChosen) {
            if !exclusions.keys.isDisjoint(with: keys) { continue }
            if let core, modification.hasRecurrenceParts, modification.sequence < core.sequence {
                // Stale unless the event still has an occurrence there.
                let day = modification.recurrenceID!.local.startOfDay
                var ignored: String?
                let dayRange = zones.instant(ICalDateValue(day, .floating)) - 86_400..<zones.instant(ICalDateValue(day.adding(days: 1), .floating)) + 86_400
                let there = core.candidates(overlapping: dayRange, zones: zones, bounded: true, warning: &ignored)
                    .contains { !exclusions.excludes($0) && !Set($0.keys).isDisjoint(with: keys) }
                if !there { continue }
            }
            result += modification.candidates(overlapping: range, zones: zones, bounded: bounded, warning: &warning, alone: true)
                .map(\.occurrence)
        }
        return result.filter { $0.overlaps(range) }.sorted { $0.start < $1.start }
    }
}

extension ICalOccurrence {
    /// Whether it overlaps `range`: it starts before the range ends and ends after it starts, or, when
    /// it takes no time, it starts inside the range.
    func overlaps(_ range: Range<Int64>) -> Bool {
        (end > range.lowerBound && start < range.upperBound) || (start == end && range.contains(start))
    }
}

/// The keys that identify an occurrence, as `recurring_ical_events` compares RECURRENCE-ID and EXDATE
/// values with occurrences: a time in a zone by its UTC instant and by its wall-clock time (so an EXDATE
/// written in the wrong zone still names the occurrence at that wall-clock time), a floating time and a
/// date by their wall-clock time alone. Each key is seconds since 1970 of a wall-clock time read as UTC.
enum RecurrenceKeys {
    static func of(_ value: ICalDateValue, zones: ICalZoneCatalog) -> [Int64] {
        switch value.kind {
        case .date:
            return [value.local.secondsSinceEpoch]
        case .floating:
            guard let zone = zones.calendarZone else { return [value.local.secondsSinceEpoch] }
            return [zone.utcSeconds(forLocal: value.local), value.local.secondsSinceEpoch]
        case .utc:
            guard let zone = zones.calendarZone else { return [value.local.secondsSinceEpoch] }
            return [value.local.secondsSinceEpoch, zone.local(atUTC: value.local.secondsSinceEpoch).secondsSinceEpoch]
        case .zoned:
            guard !zones.isUnknown(value) else { return [value.local.secondsSinceEpoch] }
            return [zones.instant(value), value.local.secondsSinceEpoch]
        }
    }
}

/// An event's EXDATEs: the keys they name and the days their dates name.
struct Exclusions {
    let keys: Set<Int64>
    let days: Set<Int>

    init(_ values: [ICalDateValue], zones: ICalZoneCatalog) {
        keys = Set(values.flatMap { RecurrenceKeys.of($0, zones: zones) })
        days = Set(values.filter(\.isDate).map(\.local.daysSinceEpoch))
    }

    func excludes(_ candidate: EventCandidate) -> Bool {
        days.contains(candidate.local.daysSinceEpoch) || !keys.isDisjoint(with: candidate.keys)
    }
}

/// A `RANGE=THISANDFUTURE` override as it applies to the occurrences after it.
struct ThisAndFuture {
    let override: ICalEvent
    /// The first key of its RECURRENCE-ID: occurrences with a larger first key follow it.
    let key: Int64
    /// How much later (seconds) its start is than its RECURRENCE-ID.
    let shift: Int
    /// How long each occurrence lasts.
    let length: (days: Int, seconds: Int)

    init(override: ICalEvent, key: Int64, zones: ICalZoneCatalog) {
        self.override = override
        self.key = key
        let recurrence = override.recurrenceID!
        let start = override.start
        let aware = start.kind != .date && start.kind != .floating && recurrence.kind != .date && recurrence.kind != .floating
        shift = Int(aware ? zones.instant(start) - zones.instant(recurrence) : start.local.secondsSinceEpoch - recurrence.local.secondsSinceEpoch)
        length = override.length(zones: zones)
    }

    /// The occurrence `candidate` of the event becomes under this override.
    func occurrence(moving candidate: EventCandidate, zones: ICalZoneCatalog) -> ICalOccurrence {
        let local = CivilDateTime(secondsSinceEpoch: candidate.local.secondsSinceEpoch + Int64(shift))
        let begin = candidate.rules.utcSeconds(forLocal: local)
        let finish = (length.days == 0 ? begin : candidate.rules.utcSeconds(forLocal: local.adding(days: length.days)))
            + Int64(length.seconds)
        return ICalOccurrence(
            event: override, start: begin, end: max(begin, finish), localStart: local, zone: candidate.zoneName)
    }
}
