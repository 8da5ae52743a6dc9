extension TemporalScanner {
    /// Words after which a bare number is a time ("at 9", "by 5", "until 18").
    static let timeLeads: Set<String> = ["at", "around", "about", "by", "until", "till", "til", "before", "after"]

    /// A clock time in one word: "9am", "9:30", "9:30pm", "21:00", "noon", "midnight", "9pm.".
    static func clock(_ token: String) -> ClockTime? {
        switch token {
        case "noon", "midday": return ClockTime(hour: 12, minute: 0, settled: true)
        case "midnight": return ClockTime(hour: 0, minute: 0, settled: true)
        default: break
        }
        var value = Substring(token)
        var meridiem: Substring?
        for suffix in ["am", "pm"] where value.hasSuffix(suffix) {
            meridiem = value.suffix(2)
            value = value.dropLast(2)
        }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), meridiem != nil || parts.count == 2,
            (1...2).contains(parts[0].count), parts[0].allSatisfy(\.isNumber), let hour = Int(parts[0])
        else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, parts[1].allSatisfy(\.isNumber), let value = Int(parts[1]), value < 60 else { return nil }
            minute = value
        }
        switch meridiem {
        case "am"?:
            guard (1...12).contains(hour) else { return nil }
            return ClockTime(hour: hour % 12, minute: minute, settled: true)
        case "pm"?:
            guard (1...12).contains(hour) else { return nil }
            return ClockTime(hour: hour % 12 + 12, minute: minute, settled: true)
        default:
            guard hour <= 23 else { return nil }
            return ClockTime(hour: hour, minute: minute, settled: hour >= 13 || hour == 0 || parts[0].hasPrefix("0"))
        }
    }

    /// The hour of a bare number or number word ("9", "nine"), 0…24; nil for anything else.
    static func bareHour(_ token: String) -> Int? {
        if token.count <= 2, token.allSatisfy(\.isNumber), let hour = Int(token), hour <= 24 { return hour % 24 }
        guard let index = SlotFiller.numberWords.firstIndex(of: token), index >= 1 else { return nil }
        return index
    }

    /// A time from one or two words at the start of `tokens`: a clock word, a bare hour with "am"/"pm" or
    /// "o'clock", "half past 9", "quarter to 5", or a bare hour after a word such as "at".
    func time(_ tokens: [String], before: String) -> (length: Int, time: ClockTime)? {
        guard let first = tokens.first else { return nil }
        if tokens.count >= 3, ["half", "quarter"].contains(first), ["past", "to"].contains(tokens[1]),
            let hour = Self.bareHour(tokens[2]) ?? Self.clock(tokens[2])?.hour
        {
            let minutes = (first == "half" ? 30 : 15) * (tokens[1] == "to" ? -1 : 1)
            let total = (hour * 60 + minutes + 1440) % 1440
            return (3, ClockTime(hour: total / 60, minute: total % 60, settled: hour >= 13))
        }
        if tokens.count >= 2, ["am", "pm"].contains(tokens[1]), let clock = Self.clock(first + tokens[1]) {
            return (2, clock)
        }
        if let clock = Self.clock(first) {
            let suffix = tokens.count >= 2 && ["o'clock", "oclock"].contains(tokens[1]) ? 1 : 0
            return (1 + suffix, clock)
        }
        guard let hour = Self.bareHour(first) else { return nil }
        if tokens.count >= 2, ["am", "pm"].contains(tokens[1]) {
            guard let clock = Self.clock(first + tokens[1]) else { return nil }
            return (2, clock)
        }
        if tokens.count >= 2, ["o'clock", "oclock"].contains(tokens[1]) {
            return (2, ClockTime(hour: hour, minute: 0, settled: hour >= 13 || hour == 0))
        }
        guard Self.timeLeads.contains(before), first.allSatisfy(\.isNumber) || before == "at" else { return nil }
        return (1, ClockTime(hour: hour, minute: 0, settled: hour >= 13 || hour == 0))
    }

    /// "from 10 to 11", "between 2 and 3pm", "10 to 11am", "10-11am", "9:30-10:15": the end's "am"/"pm"
    /// also sets the start's half of the day when it has none ("2 to 3pm" is 14:00–15:00).
    func timeRange(_ tokens: [String], before: String) -> (length: Int, start: ClockTime, end: ClockTime)? {
        var index = 0
        let opener = tokens.first.flatMap { ["from", "between"].contains($0) ? $0 : nil }
        if opener != nil { index = 1 }
        func side(_ at: Int) -> (length: Int, time: ClockTime, explicit: Bool)? {
            guard at < tokens.count else { return nil }
            if at + 1 < tokens.count, ["am", "pm"].contains(tokens[at + 1]), let clock = Self.clock(tokens[at] + tokens[at + 1]) {
                return (2, clock, true)
            }
            if let clock = Self.clock(tokens[at]) { return (1, clock, true) }
            return Self.bareHour(tokens[at]).map { (1, ClockTime(hour: $0, minute: 0, settled: $0 >= 13 || $0 == 0), false) }
        }
        var first: (length: Int, time: ClockTime, explicit: Bool)
        var second: (length: Int, time: ClockTime, explicit: Bool)
        var length: Int
        let dashed = index < tokens.count ? tokens[index].split(separator: "-", omittingEmptySubsequences: false) : []
        if dashed.count == 2, let left = Self.clock(String(dashed[0])) ?? Self.bareHour(String(dashed[0])).map({
            ClockTime(hour: $0, minute: 0, settled: $0 >= 13 || $0 == 0)
        }) {
            let right = String(dashed[1])
            var end = Self.clock(right) ?? Self.bareHour(right).map { ClockTime(hour: $0, minute: 0, settled: $0 >= 13 || $0 == 0) }
            var used = 1
            if let hour = Self.bareHour(right), index + 1 < tokens.count, ["am", "pm"].contains(tokens[index + 1]) {
                end = Self.clock(String(hour) + tokens[index + 1])
                used = 2
            }
            guard let end else { return nil }
            first = (1, left, Self.clock(String(dashed[0])) != nil)
            second = (used, end, Self.clock(right) != nil || used == 2)
            length = index + used
        } else {
            guard let start = side(index), index + start.length < tokens.count else { return nil }
            let connector = tokens[index + start.length]
            let connectors = opener == "between" ? ["and", "to", "-"] : ["to", "-", "until", "till"]
            guard connectors.contains(connector), let end = side(index + start.length + 1) else { return nil }
            first = start
            second = end
            length = index + start.length + 1 + end.length
        }
        // Bare numbers on both sides are a range only after "from" or "between" ("3 to 5" may be anything).
        guard opener != nil || first.explicit || second.explicit else { return nil }
        var start = first.time
        let end = second.time
        if !start.settled, end.hour >= 12, start.hour + 12 <= end.hour {
            start = ClockTime(hour: start.hour + 12, minute: start.minute, settled: true)
        }
        return (length, start, end)
    }

    static let offsetUnits: [String: Int] = [
        "minute": 1, "minutes": 1, "min": 1, "mins": 1, "hour": 60, "hours": 60, "hr": 60, "hrs": 60, "day": 1440, "days": 1440,
        "week": 10080, "weeks": 10080,
    ]

    /// "in 2 hours", "in half an hour", "in a week", "3 days from now", "a week from today".
    func offset(_ tokens: [String]) -> (length: Int, kind: Atom.Kind, unit: String)? {
        func amount(at index: Int) -> (length: Int, value: Double)? {
            guard index < tokens.count else { return nil }
            if tokens[index...].starts(with: ["half", "an"]) || tokens[index...].starts(with: ["half", "a"]) { return (2, 0.5) }
            if ["a", "an"].contains(tokens[index]) { return (1, 1) }
            if let number = SlotFiller.integer(tokens[index]), number > 0, number <= 10_000 { return (1, Double(number)) }
            return nil
        }
        func reading(_ start: Int) -> (length: Int, minutes: Int, unit: String)? {
            guard let count = amount(at: start), start + count.length < tokens.count else { return nil }
            let unit = tokens[start + count.length]
            guard let size = Self.offsetUnits[unit] else { return nil }
            return (count.length + 1, Int(count.value * Double(size)), unit)
        }
        let found: (length: Int, minutes: Int, unit: String)
        if tokens.first == "in", let after = reading(1) {
            found = (after.length + 1, after.minutes, after.unit)
        } else if let plain = reading(0), plain.length + 1 < tokens.count, tokens[plain.length] == "from",
            ["now", "today"].contains(tokens[plain.length + 1])
        {
            found = (plain.length + 2, plain.minutes, plain.unit)
        } else {
            return nil
        }
        if found.minutes % 1440 == 0 {
            return (found.length, .day(calendar.adding(found.minutes / 1440, to: calendar.today)), found.unit)
        }
        let (day, time) = calendar.fromNow(minutes: found.minutes)
        return (found.length, .instant(day, time), found.unit)
    }

    // MARK: - Joining

    /// Words that may stand between two pieces of one date ("friday at 3pm", "at 9am on friday").
    static let joiners: Set<String> = ["at", "on", "the", "around", "about", "of"]

    /// The pieces with neighbours joined: day ranges ("from tuesday to thursday"), a day with a time or a
    /// part of the day, a time with a part of the day ("8 in the evening").
    func joined(_ atoms: [Atom], _ tokens: [String]) -> [Atom] {
        var atoms = atoms
        var changed = true
        while changed {
            changed = false
            for index in atoms.indices.dropLast() {
                let (first, second) = (atoms[index], atoms[index + 1])
                let gap = Array(tokens[first.range.upperBound..<second.range.lowerBound])
                if let range = dayRange(first, second, gap: gap, tokens: tokens) {
                    atoms.replaceSubrange(index...(index + 1), with: [range])
                    changed = true
                    break
                }
                guard gap.count <= 2, gap.allSatisfy(Self.joiners.contains), let kind = join(first.kind, second.kind) else { continue }
                atoms.replaceSubrange(
                    index...(index + 1), with: [Atom(range: first.range.lowerBound..<second.range.upperBound, kind: kind)])
                changed = true
                break
            }
        }
        return atoms
    }

    /// "from tuesday to thursday", "between december 1 and december 24", "monday through friday".
    func dayRange(_ first: Atom, _ second: Atom, gap: [String], tokens: [String]) -> Atom? {
        guard case .day(let start) = first.kind, case .day(var end) = second.kind, gap.count == 1 else { return nil }
        let opener = first.range.lowerBound > 0 ? tokens[first.range.lowerBound - 1] : ""
        let connectors = opener == "between" ? ["and", "to", "-"] : ["to", "through", "thru", "until", "till", "-"]
        guard connectors.contains(gap[0]), opener == "from" || opener == "between" || gap[0] != "and" else { return nil }
        if end < start, second.isWeekday { end = calendar.adding(7, to: end) }
        guard start <= end else { return nil }
        let lower = ["from", "between"].contains(opener) ? first.range.lowerBound - 1 : first.range.lowerBound
        return Atom(range: lower..<second.range.upperBound, kind: .days(start, end))
    }

    /// Two neighbouring pieces as one, or nil when they do not make one date.
    func join(_ first: Atom.Kind, _ second: Atom.Kind) -> Atom.Kind? {
        func adjusted(_ time: ClockTime, _ part: PartOfDay) -> ClockTime {
            time.settled ? time : ClockTime(hour: part.hour(for: time.hour), minute: time.minute, settled: true)
        }
        switch (first, second) {
        case (.day(let day), .time(let time)), (.time(let time), .day(let day)):
            return .instant(day, time)
        case (.day(let day), .times(let start, let end)), (.times(let start, let end), .day(let day)):
            return .dayTimes(day, start, end)
        case (.day(let day), .part(let part, _)):
            return .dayPart(day, part)
        case (.dayPart(let day, let part), .time(let time)), (.time(let time), .dayPart(let day, let part)):
            return .instant(day, adjusted(time, part))
        case (.time(let time), .part(let part, _)), (.part(let part, true), .time(let time)):
            return .time(adjusted(time, part))
        case (.instant(let day, let time), .part(let part, _)):
            return .instant(day, adjusted(time, part))
        default:
            return nil
        }
    }
}
