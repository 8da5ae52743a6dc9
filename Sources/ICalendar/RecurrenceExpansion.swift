extension RecurrenceRule {
    /// The most occurrences one expansion returns (a guard against rules that never end).
    public static let occurrenceLimit = 100_000

    /// The wall-clock starts of the occurrences from `start` (DTSTART) through `limit`, in order.
    /// - Parameters:
    ///   - start: the first occurrence's wall-clock time; candidates before it are skipped.
    ///   - limit: the last wall-clock time of interest; expansion stops after it.
    ///   - isPastUntil: whether a candidate lies after the rule's UNTIL (the caller reads UNTIL in the right
    ///     zone); never called when the rule has no UNTIL.
    ///   - notBefore: the first wall-clock time of interest, or nil for all. A rule without COUNT starts
    ///     expanding at the period just before it instead of at `start` (the periods in between hold only
    ///     earlier candidates), so the cost follows the window asked for, not the event's age; the result
    ///     may then hold some candidates before `notBefore`, never fewer at or after it. A rule with COUNT
    ///     does so only when every period holds exactly one occurrence (no BYDAY, BYMONTHDAY or BYMONTH, and
    ///     a day every month or year has), so that the skipped occurrences are counted exactly; otherwise
    ///     it expands from `start`.
    public func expand(
        from start: CivilDateTime, through limit: CivilDateTime, notBefore: CivilDateTime? = nil,
        isPastUntil: (CivilDateTime) -> Bool = { _ in false }
    ) -> [CivilDateTime] {
        var result: [CivilDateTime] = []
        var produced = 0
        let maximum = min(count ?? Int.max, RecurrenceRule.occurrenceLimit)
        var first = 0
        if let notBefore, count == nil || hasOneOccurrencePerPeriod(from: start) {
            first = firstPeriod(from: start, notBefore: notBefore)
            // With COUNT, each skipped period held exactly one occurrence, and COUNT counts it.
            if count != nil { produced = first }
        }
        var period = first
        let weekdays = (byDay.isEmpty ? [start.weekday] : Array(Set(byDay.map(\.weekday)))).sorted {
            ($0 - weekStart + 7) % 7 < ($1 - weekStart + 7) % 7
        }
        var candidates: [CivilDateTime] = []
        while period < first + 400_000 {
            let periodStart = self.candidates(period: period, start: start, weekdays: weekdays, into: &candidates)
            if periodStart > limit { break }
            for candidate in candidates where candidate >= start {
                if produced >= maximum || candidate > limit { return result }
                if until != nil, isPastUntil(candidate) { return result }
                result.append(candidate)
                produced += 1
            }
            if produced >= maximum { break }
            period += 1
        }
        return result
    }

    /// The wall-clock start of the period `periods` periods before the one holding `date` (never before
    /// `start`, the rule's DTSTART): each period is a day, week, month or year times INTERVAL.
    public func startOfPeriod(_ periods: Int, periodsBefore date: CivilDateTime, from start: CivilDateTime)
        -> CivilDateTime
    {
        let period = firstPeriod(from: start, notBefore: date) + 1 - periods
        guard period > 0 else { return start }
        return startOfPeriod(period, from: start)
    }

    /// How far from DTSTART a COUNT rule whose periods may hold other than one occurrence is walked to
    /// count its occurrences: about 100 years of periods. Listing gives up on such a rule when the range
    /// lies further from DTSTART and COUNT is not reached by then (see ``ICalEvent``).
    public var countedWalkLimit: Int {
        switch frequency {
        case .daily: return 36_525
        case .weekly: return 5_218
        case .monthly: return 1_200
        case .yearly: return 100
        }
    }

    /// The wall-clock start of period `period` (0 holds `start`, DTSTART).
    func startOfPeriod(_ period: Int, from start: CivilDateTime) -> CivilDateTime {
        switch frequency {
        case .daily:
            return start.adding(days: period * interval).startOfDay
        case .weekly:
            return start.adding(days: -weekShift(start) + period * interval * 7).startOfDay
        case .monthly:
            let index = start.year * 12 + start.month - 1 + period * interval
            return CivilDateTime(year: index / 12, month: index % 12 + 1, day: 1)
        case .yearly:
            return CivilDateTime(year: start.year + period * interval, month: 1, day: 1)
        }
    }

    /// The number of whole periods from DTSTART's to the one holding `date` (0 when `date` is earlier).
    func periods(from start: CivilDateTime, to date: CivilDateTime) -> Int {
        date > start ? firstPeriod(from: start, notBefore: date) + 1 : 0
    }

    /// Whether every period holds exactly one occurrence: the rule picks no days of its own, and
    /// DTSTART's day exists in every month (MONTHLY) or year (YEARLY).
    func hasOneOccurrencePerPeriod(from start: CivilDateTime) -> Bool {
        guard byDay.isEmpty, byMonthDay.isEmpty, byMonth.isEmpty, byHour.isEmpty, byMinute.isEmpty, bySecond.isEmpty,
            bySetPosition.isEmpty
        else { return false }
        switch frequency {
        case .daily, .weekly: return true
        case .monthly: return start.day <= 28
        case .yearly: return !(start.month == 2 && start.day == 29)
        }
    }

    /// A period no later than the first one that can hold a candidate at or after `notBefore`: every
    /// period before it ends before `notBefore` (one period of margin on top of the exact count).
    private func firstPeriod(from start: CivilDateTime, notBefore: CivilDateTime) -> Int {
        guard notBefore > start else { return 0 }
        let periods: Int
        switch frequency {
        case .daily:
            periods = (notBefore.daysSinceEpoch - start.daysSinceEpoch) / interval
        case .weekly:
            periods = (notBefore.daysSinceEpoch - (start.daysSinceEpoch - weekShift(start))) / (7 * interval)
        case .monthly:
            periods = ((notBefore.year - start.year) * 12 + notBefore.month - start.month) / interval
        case .yearly:
            periods = (notBefore.year - start.year) / interval
        }
        return max(0, periods - 1)
    }

    /// How many days DTSTART lies after the start of its week (weeks start on WKST).
    func weekShift(_ start: CivilDateTime) -> Int { (start.weekday - weekStart + 7) % 7 }

    /// The first day of period `period`; its sorted candidates replace the contents of `candidates` (one
    /// buffer for the whole expansion). `weekdays` are the weekly rule's days (BYDAY, or DTSTART's).
    private func candidates(
        period: Int, start: CivilDateTime, weekdays: [Int], into candidates: inout [CivilDateTime]
    ) -> CivilDateTime {
        candidates.removeAll(keepingCapacity: true)
        var days: [CivilDateTime] = []
        let periodStart: CivilDateTime
        switch frequency {
        case .daily:
            let day = start.adding(days: period * interval)
            let keep =
                (byMonth.isEmpty || byMonth.contains(day.month))
                && (byDay.isEmpty || byDay.contains { $0.weekday == day.weekday })
                && (byMonthDay.isEmpty
                    || byMonthDay.contains { dayOfMonth($0, day.year, day.month) == day.day })
            if keep { days.append(day.startOfDay) }
            periodStart = day.startOfDay
        case .weekly:
            let weekFirst = start.adding(days: -weekShift(start) + period * interval * 7).startOfDay
            for weekday in weekdays {
                let day = weekFirst.adding(days: (weekday - weekStart + 7) % 7)
                if byMonth.isEmpty || byMonth.contains(day.month) { days.append(day) }
            }
            periodStart = weekFirst
        case .monthly:
            let index = start.year * 12 + start.month - 1 + period * interval
            let (year, month) = (index / 12, index % 12 + 1)
            if byMonth.isEmpty || byMonth.contains(month) {
                for day in daysOfMonth(year, month, defaultDay: start.day) { days.append(CivilDateTime(year: year, month: month, day: day)) }
            }
            periodStart = CivilDateTime(year: year, month: month, day: 1)
        case .yearly:
            let year = start.year + period * interval
            if byMonth.isEmpty, !byDay.isEmpty, byMonthDay.isEmpty {
                // BYDAY alone counts its ordinals within the whole year (20MO: the year's 20th Monday).
                days = daysOfYear(year).map { CivilDateTime(year: year, month: 1, day: 1).adding(days: $0) }
            } else {
                let months = !byMonth.isEmpty ? byMonth.sorted() : byMonthDay.isEmpty ? [start.month] : Array(1...12)
                for month in months {
                    for day in daysOfMonth(year, month, defaultDay: start.day) {
                        days.append(CivilDateTime(year: year, month: month, day: day))
                    }
                }
            }
            periodStart = CivilDateTime(year: year, month: 1, day: 1)
        }
        let hours = byHour.isEmpty ? [start.hour] : Set(byHour).sorted()
        let minutes = byMinute.isEmpty ? [start.minute] : Set(byMinute).sorted()
        let seconds = bySecond.isEmpty ? [start.second] : Set(bySecond).sorted()
        for day in days {
            for hour in hours {
                for minute in minutes {
                    for second in seconds {
                        candidates.append(
                            CivilDateTime(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute, second: second))
                    }
                }
            }
        }
        if !bySetPosition.isEmpty {
            let all = candidates
            candidates = Set(bySetPosition.compactMap { position -> Int? in
                let index = position > 0 ? position - 1 : all.count + position
                return all.indices.contains(index) ? index : nil
            }).sorted().map { all[$0] }
        }
        return periodStart
    }

    /// The days (0 = 1 January) of `year` that BYDAY picks, its ordinals counted within the year.
    private func daysOfYear(_ year: Int) -> [Int] {
        let length = CivilDateTime.days(year: year + 1, month: 1, day: 1) - CivilDateTime.days(year: year, month: 1, day: 1)
        return daysPicked(length: length, firstWeekday: CivilDateTime(year: year, month: 1, day: 1).weekday).sorted()
    }

    /// The days (0 = the first) of a span of `length` days starting on `firstWeekday` that BYDAY picks,
    /// its ordinals counted within the span (`2TU`: the span's second Tuesday, `-1FR`: its last Friday).
    private func daysPicked(length: Int, firstWeekday: Int) -> Set<Int> {
        var days = Set<Int>()
        for entry in byDay {
            let all = Array(stride(from: (entry.weekday - firstWeekday + 7) % 7, to: length, by: 7))
            switch entry.ordinal {
            case nil: days.formUnion(all)
            case let n? where n > 0 && n <= all.count: days.insert(all[n - 1])
            case let n? where n < 0 && -n <= all.count: days.insert(all[all.count + n])
            default: break
            }
        }
        return days
    }

    /// The days of a month the BYDAY / BYMONTHDAY parts pick, or `defaultDay` when the month has it.
    private func daysOfMonth(_ year: Int, _ month: Int, defaultDay: Int) -> [Int] {
        let length = CivilDateTime.daysIn(month: month, year: year)
        if !byDay.isEmpty {
            var days = Set(
                daysPicked(length: length, firstWeekday: CivilDateTime(year: year, month: month, day: 1).weekday).map { $0 + 1 })
            if !byMonthDay.isEmpty {
                days = days.filter { day in byMonthDay.contains { dayOfMonth($0, year, month) == day } }
            }
            return days.sorted()
        }
        if !byMonthDay.isEmpty {
            return Set(byMonthDay.compactMap { dayOfMonth($0, year, month) }).sorted()
        }
        return defaultDay <= length ? [defaultDay] : []
    }

    /// A BYMONTHDAY entry as a day of the month (negative counts from the end); nil when the month is short.
    private func dayOfMonth(_ entry: Int, _ year: Int, _ month: Int) -> Int? {
        let length = CivilDateTime.daysIn(month: month, year: year)
        let day = entry > 0 ? entry : length + 1 + entry
        return (1...length).contains(day) ? day : nil
    }
}
