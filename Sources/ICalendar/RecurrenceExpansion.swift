extension RecurrenceRule {
    /// The most occurrences one expansion returns (a guard against rules that never end).
    public static let occurrenceLimit = 100_000

    /// The wall-clock starts of the occurrences from `start` (DTSTART) through `limit`, in order.
    /// - Parameters:
    ///   - start: the first occurrence's wall-clock time; candidates before it are skipped.
    ///   - limit: the last wall-clock time of interest; expansion stops after it.
    ///   - isPastUntil: whether a candidate lies after the rule's UNTIL (the caller reads UNTIL in the right
    ///     zone); never called when the rule has no UNTIL.
    public func expand(
        from start: CivilDateTime, through limit: CivilDateTime, isPastUntil: (CivilDateTime) -> Bool = { _ in false }
    ) -> [CivilDateTime] {
        var result: [CivilDateTime] = []
        var produced = 0
        let maximum = min(count ?? Int.max, RecurrenceRule.occurrenceLimit)
        var period = 0
        while period < 400_000 {
            let (periodStart, candidates) = self.candidates(period: period, start: start)
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

    /// The first day of period `period` and the sorted candidates it holds.
    private func candidates(period: Int, start: CivilDateTime) -> (CivilDateTime, [CivilDateTime]) {
        func at(_ year: Int, _ month: Int, _ day: Int) -> CivilDateTime {
            CivilDateTime(
                year: year, month: month, day: day, hour: start.hour, minute: start.minute, second: start.second)
        }
        switch frequency {
        case .daily:
            let day = start.adding(days: period * interval)
            let keep =
                (byMonth.isEmpty || byMonth.contains(day.month))
                && (byDay.isEmpty || byDay.contains { $0.weekday == day.weekday })
                && (byMonthDay.isEmpty
                    || byMonthDay.contains { dayOfMonth($0, day.year, day.month) == day.day })
            return (day.startOfDay, keep ? [day] : [])
        case .weekly:
            let weekStart = start.adding(days: -start.weekday + period * interval * 7)
            let weekdays = byDay.isEmpty ? [start.weekday] : Set(byDay.map(\.weekday)).sorted()
            let days = weekdays.map { weekStart.adding(days: $0) }
                .filter { byMonth.isEmpty || byMonth.contains($0.month) }
            return (weekStart.startOfDay, days)
        case .monthly:
            let index = start.year * 12 + start.month - 1 + period * interval
            let (year, month) = (index / 12, index % 12 + 1)
            let days =
                byMonth.isEmpty || byMonth.contains(month)
                ? daysOfMonth(year, month, defaultDay: start.day).map { at(year, month, $0) } : []
            return (CivilDateTime(year: year, month: month, day: 1), days)
        case .yearly:
            let year = start.year + period * interval
            let months = byMonth.isEmpty ? [start.month] : byMonth.sorted()
            let days = months.flatMap { month in
                daysOfMonth(year, month, defaultDay: start.day).map { at(year, month, $0) }
            }
            return (CivilDateTime(year: year, month: 1, day: 1), days)
        }
    }

    /// The days of a month the BYDAY / BYMONTHDAY parts pick, or `defaultDay` when the month has it.
    private func daysOfMonth(_ year: Int, _ month: Int, defaultDay: Int) -> [Int] {
        let length = CivilDateTime.daysIn(month: month, year: year)
        if !byDay.isEmpty {
            let firstWeekday = CivilDateTime(year: year, month: month, day: 1).weekday
            var days = Set<Int>()
            for entry in byDay {
                let first = (entry.weekday - firstWeekday + 7) % 7 + 1
                let all = Array(stride(from: first, through: length, by: 7))
                switch entry.ordinal {
                case nil: days.formUnion(all)
                case let n? where n > 0 && n <= all.count: days.insert(all[n - 1])
                case let n? where n < 0 && -n <= all.count: days.insert(all[all.count + n])
                default: break
                }
            }
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
