import Synchronization

/// Finding the onset that decides an instant: each observance's latest DTSTART, RDATE or RRULE occurrence
/// at or before it, from a window of the rule just before the instant, never from an expansion since the
/// rule's DTSTART (found by fuzzing: a monthly DAYLIGHT rule from the year 1013 listed 12,000 onsets for
/// every year an event touched, and every instant scanned them: 3 s for one listing under
/// AddressSanitizer; a daily rule, 34 s).
extension VTimeZoneRules {
    /// The latest onset (UTC) of observance `index` at or before `seconds`, or nil when it has none yet.
    func latestOnset(of index: Int, atOrBefore seconds: Int64) -> Int64? {
        let observance = observances[index]
        // An onset's UTC time is its wall-clock time less TZOFFSETFROM, so the bound is a wall-clock one.
        let local = CivilDateTime(secondsSinceEpoch: seconds + Int64(observance.offsetFrom))
        var latest = observance.fixedOnsets.last(atOrBefore: local)
        if let rule = observance.rule, let occurrence = latestOccurrence(index, rule, atOrBefore: local) {
            latest = max(latest ?? occurrence, occurrence)
        }
        return latest.map { $0.secondsSinceEpoch - Int64(observance.offsetFrom) }
    }

    /// The latest occurrence of observance `index`'s `rule` at or before wall-clock time `local`.
    ///
    /// A rule that can start at any period (no COUNT, or one occurrence per period: see
    /// ``RecurrenceRule/expand(from:through:notBefore:isPastUntil:)``) is expanded over a window of two
    /// periods before `local` (before its UNTIL, if that is earlier), doubled while the window holds no
    /// occurrence up to `local`; so the cost follows how sparse the rule is, not how old. The window also
    /// reaches as far past `local` as before it and is kept: the next instants asked are usually near.
    /// Once a search back to DTSTART finds nothing, the rule is known to have nothing up to `local`. Any
    /// other COUNT rule is expanded from DTSTART once (COUNT bounds it).
    private func latestOccurrence(_ index: Int, _ rule: RecurrenceRule, atOrBefore local: CivilDateTime)
        -> CivilDateTime?
    {
        let observance = observances[index]
        guard local >= observance.start else { return nil }
        let until = observance.until
        let isPastUntil = { (candidate: CivilDateTime) -> Bool in
            guard let until else { return false }
            return until.isUTC
                ? candidate.secondsSinceEpoch - Int64(observance.offsetFrom) > until.local.secondsSinceEpoch
                : candidate > until.local
        }
        guard rule.count == nil || rule.hasOneOccurrencePerPeriod(from: observance.start) else {
            let all = onsetCache.counted(index) {
                rule.expand(
                    from: observance.start, through: CivilDateTime(year: 10_000, month: 1, day: 1),
                    isPastUntil: isPastUntil)
            }
            return all.last(atOrBefore: local)
        }
        if let window = onsetCache.window(index), let latest = window.latest(atOrBefore: local) { return latest }
        let nothingThrough = onsetCache.nothingThrough(index)
        if let nothingThrough, local <= nothingThrough { return nil }
        // Five days past UNTIL covers a UTC UNTIL read at any offset (at most 99:59:59).
        let anchor = until.map { min(local, $0.local.adding(days: 5)) } ?? local
        var span = 2 * rule.daysPerPeriod
        while true {
            var notBefore: CivilDateTime? = anchor.adding(days: -span)
            var fromFloor = false
            if let start = notBefore, start <= observance.start {
                (notBefore, fromFloor) = (nil, true)
            } else if let start = notBefore, let nothingThrough, start <= nothingThrough {
                (notBefore, fromFloor) = (nothingThrough, true)
            }
            let through = local.adding(days: span)
            let occurrences = rule.expand(
                from: observance.start, through: through, notBefore: notBefore, isPastUntil: isPastUntil)
            // An expansion cut by its own limits holds everything only up to its last occurrence.
            let whole = occurrences.count < RecurrenceRule.occurrenceLimit && span / rule.daysPerPeriod < 150_000
            let window = OnsetCache.Window(occurrences: occurrences, through: whole ? through : occurrences.last)
            if let latest = window.latest(atOrBefore: local) {
                onsetCache.keep(window, of: index)
                return latest
            }
            if fromFloor {
                onsetCache.noteNothing(of: index, through: local)
                return nil
            }
            span *= 2
        }
    }
}

/// What a VTIMEZONE's rule expansions found, per observance: the last window expanded, how far a rule is
/// known to have no occurrence, and the whole expansion of a COUNT rule walked from DTSTART.
final class OnsetCache: Sendable {
    /// Every occurrence of a rule from `occurrences.first` through `through`, in order.
    struct Window {
        var occurrences: [CivilDateTime]
        var through: CivilDateTime?

        /// The latest occurrence at or before `local`, when this window decides it.
        func latest(atOrBefore local: CivilDateTime) -> CivilDateTime? {
            guard let through, local <= through, let first = occurrences.first, first <= local else { return nil }
            return occurrences.last(atOrBefore: local)
        }
    }

    private struct State {
        var windows: [Int: Window] = [:]
        var nothingThrough: [Int: CivilDateTime] = [:]
        var counted: [Int: [CivilDateTime]] = [:]
    }

    private let state = Mutex(State())

    func window(_ index: Int) -> Window? { state.withLock { $0.windows[index] } }

    func keep(_ window: Window, of index: Int) { state.withLock { $0.windows[index] = window } }

    /// The latest wall-clock time up to which observance `index`'s rule is known to have no occurrence.
    func nothingThrough(_ index: Int) -> CivilDateTime? { state.withLock { $0.nothingThrough[index] } }

    func noteNothing(of index: Int, through local: CivilDateTime) {
        state.withLock { state in
            state.nothingThrough[index] = max(state.nothingThrough[index] ?? local, local)
        }
    }

    /// The whole expansion of observance `index`'s COUNT rule, from `compute` the first time.
    func counted(_ index: Int, _ compute: () -> [CivilDateTime]) -> [CivilDateTime] {
        if let known = state.withLock({ $0.counted[index] }) { return known }
        let computed = compute()
        state.withLock { $0.counted[index] = computed }
        return computed
    }
}

extension RecurrenceRule {
    /// The most days one period (a day, week, month or year, times INTERVAL) spans.
    fileprivate var daysPerPeriod: Int {
        switch frequency {
        case .daily: return interval
        case .weekly: return 7 * interval
        case .monthly: return 31 * interval
        case .yearly: return 366 * interval
        }
    }
}

extension Array where Element == CivilDateTime {
    /// The last of these sorted times at or before `local`.
    fileprivate func last(atOrBefore local: CivilDateTime) -> CivilDateTime? {
        let after = partitioningIndex { $0 > local }
        return after > 0 ? self[after - 1] : nil
    }
}
