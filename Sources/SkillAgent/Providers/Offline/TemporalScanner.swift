/// Finds the dates and times in a request, in any word order: days ("tomorrow", "next monday", "december
/// 24", "the 5th", "christmas"), times ("9am", "at 9", "15:30", "noon", "half past 9"), both together ("at 8am
/// next monday", "friday at 3pm"), spans ("this week", "next weekend", "from tuesday to thursday"), parts of
/// a day ("tomorrow morning", "in the afternoon", "tonight"), time ranges ("from 10 to 11") and offsets from
/// now ("in 2 hours"). Each is one ``TemporalMention`` with the word that introduced it ("on", "until"…).
///
/// Relative words are read against ``TemporalCalendar/now`` in the user's zone. A weekday or a month and
/// day is the next such day ("friday" on a Friday is a week ahead, "this friday" today), or the last one
/// after "since", before "ago" or with "last". A bare number is a time only after "at", "around", "by",
/// "until" or in a range ("from 10 to 11"), and reads on a 24-hour clock unless a part of the day moves it
/// ("at 8 in the evening"). Quoted text and text after a colon are never read.
struct TemporalScanner: Sendable {
    let calendar: TemporalCalendar

    /// One recognized piece before pieces are joined ("tomorrow" and "at 9am" become one instant).
    struct Atom {
        enum Kind {
            case day(LocalDay)
            case days(LocalDay, LocalDay)
            case time(ClockTime)
            case times(ClockTime, ClockTime)
            /// A part of the day; `anchored` when words tie it to a day ("in the", "this", "at").
            case part(PartOfDay, anchored: Bool)
            case dayPart(LocalDay, PartOfDay)
            case instant(LocalDay, ClockTime)
            case dayTimes(LocalDay, ClockTime, ClockTime)
            case literal(String)
        }

        var range: Range<Int>
        var kind: Kind
        var offsetUnit: String?
        /// A weekday whose day a range may move a week on ("friday to monday").
        var isWeekday = false
    }

    /// The mentions in `words` (a clause's words as typed), in order; words in `blocked` are never read.
    func mentions(in words: [String], blocked: Set<Int> = []) -> [TemporalMention] {
        let tokens = words.map(Self.token)
        var atoms: [Atom] = []
        var index = 0
        while index < tokens.count {
            if blocked.contains(index) {
                index += 1
                continue
            }
            if let atom = atom(at: index, tokens, blocked: blocked, previous: atoms.last) {
                atoms.append(atom)
                index = atom.range.upperBound
            } else {
                index += 1
            }
        }
        atoms = joined(atoms, tokens)
        return atoms.compactMap { atom -> TemporalMention? in
            guard let value = Self.value(of: atom.kind) else { return nil }
            var lead: String?
            let before = atom.range.lowerBound - 1
            if before >= 0, !blocked.contains(before), Self.leads.contains(tokens[before]),
                !atoms.contains(where: { $0.range.contains(before) })
            {
                lead = tokens[before]
            }
            return TemporalMention(
                core: atom.range, lead: lead, value: value, offsetUnit: atom.offsetUnit,
                text: words[atom.range].joined(separator: " ").trimmingCharacters(in: .punctuationCharacters))
        }
    }

    /// Words that introduce a date or time and say how it relates.
    static let leads: Set<String> = [
        "on", "at", "by", "for", "from", "to", "until", "till", "til", "through", "thru", "before", "since", "after", "due",
        "around", "about", "starting", "over", "during",
    ]

    /// A word as the scanner compares it: lowercase, without punctuation at its ends or a possessive "'s",
    /// "a.m." as "am".
    static func token(_ word: String) -> String {
        let plain = WordNormalizer.normalized(word)
        switch plain {
        case "a.m": return "am"
        case "p.m": return "pm"
        default: return plain
        }
    }

    /// The value a finished atom stands for; nil for pieces that mean nothing alone (a bare "morning").
    static func value(of kind: Atom.Kind) -> TemporalValue? {
        switch kind {
        case .day(let day): .day(day)
        case .days(let first, let last): first == last ? .day(first) : .days(first, last)
        case .time(let time): .time(time)
        case .times(let start, let end): .times(nil, start, end)
        case .part(let part, let anchored): anchored ? .part(nil, part) : nil
        case .dayPart(let day, let part): .part(day, part)
        case .instant(let day, let time): .instant(day, time)
        case .dayTimes(let day, let start, let end): .times(day, start, end)
        case .literal(let text): .literal(text)
        }
    }

    // MARK: - Pieces

    /// The longest piece that starts at `index`.
    func atom(at index: Int, _ tokens: [String], blocked: Set<Int>, previous: Atom?) -> Atom? {
        let end = (index..<tokens.count).first { blocked.contains($0) } ?? tokens.count
        let open = Array(tokens[index..<end])
        let before = index > 0 ? tokens[index - 1] : ""
        let past = before == "since" || tokens.contains("ago")
        let candidates: [(length: Int, kind: Atom.Kind, unit: String?, weekday: Bool)?] = [
            literal(open).map { (1, $0, nil, false) },
            holiday(open, past: past).map { ($0.length, .day($0.day), nil, false) },
            relativeDay(open).map { ($0.length, $0.kind, nil, false) },
            span(open).map { ($0.length, $0.kind, nil, false) },
            partOfDay(open).map { ($0.length, $0.kind, nil, false) },
            weekday(open, before: before, past: past).map { ($0.length, .day($0.day), nil, true) },
            monthDay(open, past: past).map { ($0.length, .day($0.day), nil, false) },
            ordinalDay(open, past: past).map { ($0.length, .day($0.day), nil, false) },
            timeRange(open, before: before).map { ($0.length, .times($0.start, $0.end), nil, false) },
            time(open, before: before).map { ($0.length, .time($0.time), nil, false) },
            offset(open).map { ($0.length, $0.kind, $0.unit, false) },
        ]
        guard let best = candidates.compactMap({ $0 }).max(by: { $0.length < $1.length }) else { return nil }
        return Atom(range: index..<(index + best.length), kind: best.kind, offsetUnit: best.unit, isWeekday: best.weekday)
    }

    /// `2026-12-03` (a day) or `2026-12-03T15:00…` (as typed).
    func literal(_ tokens: [String]) -> Atom.Kind? {
        guard let token = tokens.first, token.count >= 10 else { return nil }
        let bytes = Array(token.utf8)
        let digits = [0, 1, 2, 3, 5, 6, 8, 9]
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            digits.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }),
            let year = Int(token.prefix(4)), let month = Int(token.dropFirst(5).prefix(2)), let day = Int(token.dropFirst(8).prefix(2))
        else { return nil }
        let date = LocalDay(year: year, month: month, day: day)
        guard calendar.exists(date) else { return nil }
        if token.count == 10 { return .day(date) }
        guard bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " ") else { return nil }
        // As typed, with the T upper-case as RFC 3339 writes it.
        return .literal(token.prefix(10) + "T" + token.dropFirst(11).uppercased())
    }

    /// "today", "tomorrow", "the day after tomorrow", "tonight", "this morning"….
    func relativeDay(_ tokens: [String]) -> (length: Int, kind: Atom.Kind)? {
        let today = calendar.today
        let phrases: [([String], Int)] = [
            (["the", "day", "after", "tomorrow"], 2), (["day", "after", "tomorrow"], 2), (["the", "day", "before", "yesterday"], -2),
            (["day", "before", "yesterday"], -2), (["today"], 0), (["tomorrow"], 1), (["tmrw"], 1), (["tomorow"], 1),
            (["tommorow"], 1), (["yesterday"], -1),
        ]
        for (words, offset) in phrases where tokens.starts(with: words) {
            return (words.count, .day(calendar.adding(offset, to: today)))
        }
        if tokens.first == "tonight" { return (1, .dayPart(today, .evening)) }
        if tokens.count >= 2, tokens[0] == "this", let part = PartOfDay(rawValue: tokens[1]), part != .night {
            return (2, .dayPart(today, part))
        }
        return nil
    }

    /// "this week", "next weekend", "the weekend", "this month", "the rest of the week".
    func span(_ tokens: [String]) -> (length: Int, kind: Atom.Kind)? {
        let today = calendar.today
        let monday = calendar.adding(-((calendar.weekday(of: today) + 6) % 7), to: today)
        func week(_ shift: Int) -> Atom.Kind {
            let first = calendar.adding(7 * shift, to: monday)
            return .days(first, calendar.adding(6, to: first))
        }
        func weekend(_ shift: Int) -> Atom.Kind {
            // This weekend is the Saturday and Sunday of this week (from today when it is one of them).
            let saturday = calendar.adding(5 + 7 * shift, to: monday)
            return .days(shift == 0 ? max(saturday, today) : saturday, calendar.adding(1, to: saturday))
        }
        func month(_ shift: Int) -> Atom.Kind {
            var year = today.year
            var month = today.month + shift
            if month > 12 { (year, month) = (year + 1, month - 12) }
            if month < 1 { (year, month) = (year - 1, month + 12) }
            let first = LocalDay(year: year, month: month, day: 1)
            let last = (28...31).reversed().map { LocalDay(year: year, month: month, day: $0) }.first(where: calendar.exists) ?? first
            return .days(first, last)
        }
        if tokens.starts(with: ["the", "rest", "of", "the", "week"]) || tokens.starts(with: ["rest", "of", "the", "week"]) {
            let length = tokens.first == "the" ? 5 : 4
            return (length, .days(today, calendar.adding(6, to: monday)))
        }
        guard let first = tokens.first else { return nil }
        let shifts = ["this": 0, "the": 0, "next": 1, "last": -1, "coming": 1]
        if let shift = shifts[first], tokens.count >= 2 {
            switch tokens[1] {
            case "week" where first != "the": return (2, week(shift))
            case "weekend": return (2, weekend(shift))
            case "month" where first != "the": return (2, month(shift))
            default: break
            }
        }
        if first == "weekend" { return (1, weekend(0)) }
        return nil
    }

    /// "in the morning", "at night", "during the afternoon"; a bare "morning" that a day before it anchors.
    func partOfDay(_ tokens: [String]) -> (length: Int, kind: Atom.Kind)? {
        for prefix in [["in", "the"], ["during", "the"], ["at"], ["the"]] where tokens.starts(with: prefix) {
            guard tokens.count > prefix.count, let part = PartOfDay(rawValue: tokens[prefix.count]) else { continue }
            if prefix == ["at"], part != .night { continue }
            return (prefix.count + 1, .part(part, anchored: prefix != ["the"]))
        }
        guard let first = tokens.first, let part = PartOfDay(rawValue: first) else { return nil }
        return (1, .part(part, anchored: false))
    }

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    static let weekdayAbbreviations = [
        "sun": 0, "mon": 1, "tue": 2, "tues": 2, "wed": 3, "weds": 3, "thu": 4, "thur": 4, "thurs": 4, "fri": 5, "sat": 6,
    ]

    /// "friday", "next monday", "this thursday", "last friday", "coming tuesday" ("fri" only after a word
    /// that introduces a day: "sat" is also a verb).
    func weekday(_ tokens: [String], before: String, past: Bool) -> (length: Int, day: LocalDay)? {
        var modifier: String?
        var index = 0
        if tokens.starts(with: ["this", "coming"]) {
            modifier = "next"
            index = 2
        } else if let first = tokens.first, ["this", "next", "last", "coming", "past"].contains(first) {
            modifier = first
            index = 1
        }
        guard index < tokens.count else { return nil }
        let word = tokens[index]
        var target = Self.weekdays.firstIndex(of: word)
        if target == nil, let abbreviated = Self.weekdayAbbreviations[word], modifier != nil || Self.leads.contains(before) {
            target = abbreviated
        }
        guard let target else { return nil }
        let today = calendar.today
        let current = calendar.weekday(of: today)
        let offset: Int
        switch modifier {
        case "last"?, "past"?:
            offset = -(((current - target + 7) % 7).nonZero(or: 7))
        case "this"?:
            offset = (target - current + 7) % 7
        case nil where past:
            offset = -(((current - target + 7) % 7).nonZero(or: 7))
        default:
            offset = ((target - current + 7) % 7).nonZero(or: 7)
        }
        return (index + 1, calendar.adding(offset, to: today))
    }

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// The month (1…12) of a month name or its first three letters ("sept" too).
    static func month(_ word: String) -> Int? {
        if let index = monthNames.firstIndex(of: word) { return index + 1 }
        guard word.count == 3 || word == "sept" else { return nil }
        return monthNames.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    /// A day of the month: "25", "25th", "1st".
    static func dayNumber(_ word: String) -> Int? {
        var digits = word
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) { digits.removeLast(2) }
        guard (1...2).contains(digits.count), digits.allSatisfy(\.isNumber), let number = Int(digits), (1...31).contains(number) else {
            return nil
        }
        return number
    }

    /// "december 25", "Dec 25th, 2026", "25 december", "the 1st of march 2027".
    func monthDay(_ tokens: [String], past: Bool) -> (length: Int, day: LocalDay)? {
        for length in stride(from: min(5, tokens.count), through: 2, by: -1) {
            let window = Array(tokens.prefix(length))
            // "the" only before a day number, "of" only between a day number and a month.
            let fillerFits = window.indices.allSatisfy { index in
                switch window[index] {
                case "the": index + 1 < length && Self.dayNumber(window[index + 1]) != nil
                case "of": index > 0 && index + 1 < length && Self.dayNumber(window[index - 1]) != nil && Self.month(window[index + 1]) != nil
                default: true
                }
            }
            let words = window.filter { $0 != "the" && $0 != "of" }
            guard fillerFits, (2...3).contains(words.count) else { continue }
            var month: Int?
            var day: Int?
            var year: Int?
            var valid = true
            for word in words {
                if month == nil, let number = Self.month(word) {
                    month = number
                } else if day == nil, year == nil, let number = Self.dayNumber(word) {
                    day = number
                } else if year == nil, month != nil, day != nil, word.count == 4, let number = Int(word) {
                    year = number
                } else {
                    valid = false
                }
            }
            guard valid, let month, let day else { continue }
            guard let resolved = resolve(month: month, day: day, year: year, past: past) else { return nil }
            return (length, resolved)
        }
        return nil
    }

    /// The day of a month and day: in `year`, else the next one (today counts), or the last one when `past`.
    func resolve(month: Int, day: Int, year: Int?, past: Bool) -> LocalDay? {
        let today = calendar.today
        if let year {
            let date = LocalDay(year: year, month: month, day: day)
            return calendar.exists(date) ? date : nil
        }
        for candidate in past ? [today.year, today.year - 1] : [today.year, today.year + 1] {
            let date = LocalDay(year: candidate, month: month, day: day)
            guard calendar.exists(date) else { continue }
            if past ? date <= today : date >= today { return date }
        }
        return nil
    }

    /// "christmas", "christmas eve", "new year's day", "new year's eve", "halloween", "valentine's day".
    func holiday(_ tokens: [String], past: Bool) -> (length: Int, day: LocalDay)? {
        let days: [([String], Int, Int)] = [
            (["christmas", "eve"], 12, 24), (["christmas", "day"], 12, 25), (["christmas"], 12, 25), (["xmas"], 12, 25),
            (["new", "year", "eve"], 12, 31), (["new", "years", "eve"], 12, 31), (["new", "year", "day"], 1, 1),
            (["new", "years", "day"], 1, 1), (["new", "year"], 1, 1), (["new", "years"], 1, 1), (["halloween"], 10, 31),
            (["valentine", "day"], 2, 14), (["valentines", "day"], 2, 14),
        ]
        for (words, month, day) in days where tokens.starts(with: words) {
            return resolve(month: month, day: day, year: nil, past: past).map { (words.count, $0) }
        }
        return nil
    }

    /// "the 25th": this month's, or next month's once it is past.
    func ordinalDay(_ tokens: [String], past: Bool) -> (length: Int, day: LocalDay)? {
        guard tokens.count >= 2, tokens[0] == "the", tokens[1].count > 2, tokens[1].last?.isLetter == true,
            let number = Self.dayNumber(tokens[1])
        else { return nil }
        let today = calendar.today
        for shift in past ? [0, -1] : [0, 1] {
            var year = today.year
            var month = today.month + shift
            if month > 12 { (year, month) = (year + 1, 1) }
            if month < 1 { (year, month) = (year - 1, 12) }
            let date = LocalDay(year: year, month: month, day: number)
            if calendar.exists(date), past ? date <= today : date >= today { return (2, date) }
        }
        return nil
    }
}

extension Int {
    /// This number, or `other` when it is zero.
    func nonZero(or other: Int) -> Int { self == 0 ? other : self }
}
