/// A POSIX TZ string as TZif footers carry it (RFC 8536 section 3.3), e.g. "CET-1CEST,M3.5.0,M10.5.0/3" or
/// "<+09>-9": the standard time, and optionally daylight saving time with the yearly rule of its start and end.
public struct PosixTimeZoneRule: Equatable, Sendable {
    /// The day of the year a change happens on.
    public enum TransitionDay: Equatable, Sendable {
        /// `Jn`: day 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// Daylight saving time and when it starts and ends each year.
    public struct Daylight: Equatable, Sendable {
        public var type: TZifFile.LocalTimeType
        public var startDay: TransitionDay
        /// Seconds after local midnight (standard time) of `startDay`; may be negative or past 24 h.
        public var startTime: Int64
        public var endDay: TransitionDay
        /// Seconds after local midnight (daylight saving time) of `endDay`.
        public var endTime: Int64
    }

    /// Standard time.
    public var standard: TZifFile.LocalTimeType
    /// Daylight saving time, nil when the zone has none.
    public var daylight: Daylight?

    /// Parses a TZ string.
    /// - Parameter allowingExtensions: RFC 8536 version 3: transition times from -167 to 167 hours.
    /// - Throws: ``TZifError`` whose offset is the character where the string goes wrong.
    public init(parsing text: String, allowingExtensions: Bool = true) throws(TZifError) {
        var scanner = RuleScanner(Array(text.utf8))
        let standardName = try scanner.name()
        let standardOffset = try scanner.offset(maximumHours: 24)
        standard = TZifFile.LocalTimeType(utcOffset: Int32(-standardOffset), isDaylightSaving: false, abbreviation: standardName)
        guard !scanner.isAtEnd else {
            daylight = nil
            return
        }
        let daylightName = try scanner.name()
        var daylightOffset = -standardOffset + 3600
        if let next = scanner.peek, next != UInt8(ascii: ",") {
            daylightOffset = -(try scanner.offset(maximumHours: 24))
        }
        guard scanner.peek == UInt8(ascii: ",") else {
            throw TZifError(scanner.isAtEnd ? "daylight saving time has no rule (\",start[/time],end[/time]\")" : "expected \",\" before the rule", at: scanner.position)
        }
        scanner.advance()
        let maximumHours = allowingExtensions ? 167 : 24
        let startDay = try scanner.transitionDay()
        let startTime = try scanner.transitionTime(maximumHours: maximumHours)
        guard scanner.peek == UInt8(ascii: ",") else { throw TZifError("expected \",\" between the start and end of daylight saving time", at: scanner.position) }
        scanner.advance()
        let endDay = try scanner.transitionDay()
        let endTime = try scanner.transitionTime(maximumHours: maximumHours)
        guard scanner.isAtEnd else { throw TZifError("unexpected characters after the rule", at: scanner.position) }
        daylight = Daylight(
            type: TZifFile.LocalTimeType(utcOffset: Int32(daylightOffset), isDaylightSaving: true, abbreviation: daylightName),
            startDay: startDay, startTime: startTime, endDay: endDay, endTime: endTime)
    }

    /// The local time type at `instant` (seconds since 1970, UTC).
    public func localTimeType(at instant: Int64) -> TZifFile.LocalTimeType {
        guard let daylight else { return standard }
        let year = CivilDate(daysSince1970: splitDays(instant &+ Int64(standard.utcOffset)).days).year
        // The changes of the year before, this year and the next, in order; the last one at or before the
        // instant decides (a change of one year may fall in the next when its time runs past 24 h).
        var changes: [(at: Int64, toDaylight: Bool)] = []
        for y in [year - 1, year, year + 1] {
            changes.append((Self.seconds(y, daylight.startDay, daylight.startTime) &- Int64(standard.utcOffset), true))
            changes.append((Self.seconds(y, daylight.endDay, daylight.endTime) &- Int64(daylight.type.utcOffset), false))
        }
        // At equal instants the end comes first: "DST all year" rules end one year where the next begins.
        changes.sort { $0.at != $1.at ? $0.at < $1.at : (!$0.toDaylight && $1.toDaylight) }
        var current = changes[0].toDaylight ? false : true
        for change in changes where change.at <= instant { current = change.toDaylight }
        return current ? daylight.type : standard
    }

    /// Local seconds since 1970 of `time` on `day` of `year`.
    static func seconds(_ year: Int64, _ day: TransitionDay, _ time: Int64) -> Int64 {
        let january1 = CivilDate(year: year, month: 1, day: 1).daysSince1970
        let days: Int64
        switch day {
        case .julian(let n):
            days = january1 + Int64(n - 1) + (CivilDate.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            days = january1 + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(year: year, month: month, day: 1).daysSince1970
            var day = 1 + (weekday - CivilDate.weekday(daysSince1970: first) + 7) % 7 + (week - 1) * 7
            let length = CivilDate.daysInMonth(year: year, month: month)
            while day > length { day -= 7 }
            days = first + Int64(day - 1)
        }
        // Wrapping: instants near the ends of Int64 (a hostile file's transitions) give nonsense, not a trap.
        return days &* 86_400 &+ time
    }
}

/// Reads the parts of a TZ string.
private struct RuleScanner {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }
    mutating func advance() { position += 1 }

    /// "CET" (three or more letters) or "<+0330>" (three or more letters, digits, '+' or '-' in angle brackets).
    mutating func name() throws(TZifError) -> String {
        let start = position
        if peek == UInt8(ascii: "<") {
            advance()
            let inner = position
            while let byte = peek, isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { advance() }
            guard peek == UInt8(ascii: ">") else { throw TZifError("a quoted zone name must end with \">\"", at: position) }
            guard position - inner >= 3 else { throw TZifError("a zone name has at least three characters", at: start) }
            defer { advance() }
            return String(decoding: bytes[inner..<position], as: UTF8.self)
        }
        while let byte = peek, isLetter(byte) { advance() }
        guard position - start >= 3 else { throw TZifError("expected a zone name of at least three letters", at: start) }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// "[+-]hh[:mm[:ss]]" in seconds; hours up to `maximumHours`.
    mutating func offset(maximumHours: Int) throws(TZifError) -> Int64 {
        var sign: Int64 = 1
        if peek == UInt8(ascii: "+") {
            advance()
        } else if peek == UInt8(ascii: "-") {
            sign = -1
            advance()
        }
        let start = position
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else {
            throw TZifError("expected hours from 0 to \(maximumHours)", at: start)
        }
        var total = Int64(hours) * 3600
        for scale in [Int64(60), 1] {
            guard peek == UInt8(ascii: ":") else { break }
            advance()
            let at = position
            guard let value = number(maximumDigits: 2), value <= 59, position - at == 2 else {
                throw TZifError("expected two digits from 00 to 59", at: at)
            }
            total += Int64(value) * scale
        }
        return sign * total
    }

    /// "Jn", "n" or "Mm.w.d".
    mutating func transitionDay() throws(TZifError) -> PosixTimeZoneRule.TransitionDay {
        let start = position
        if peek == UInt8(ascii: "J") {
            advance()
            guard let day = number(maximumDigits: 3), (1...365).contains(day) else { throw TZifError("expected a day from J1 to J365", at: start) }
            return .julian(day)
        }
        if peek == UInt8(ascii: "M") {
            advance()
            guard let month = number(maximumDigits: 2), (1...12).contains(month), peek == UInt8(ascii: ".") else {
                throw TZifError("expected Mm.w.d with a month from 1 to 12", at: start)
            }
            advance()
            guard let week = number(maximumDigits: 1), (1...5).contains(week), peek == UInt8(ascii: ".") else {
                throw TZifError("expected Mm.w.d with a week from 1 to 5", at: start)
            }
            advance()
            guard let weekday = number(maximumDigits: 1), (0...6).contains(weekday) else {
                throw TZifError("expected Mm.w.d with a weekday from 0 to 6", at: start)
            }
            return .monthWeekDay(month: month, week: week, weekday: weekday)
        }
        guard let day = number(maximumDigits: 3), (0...365).contains(day) else {
            throw TZifError("expected a transition day (Jn, n or Mm.w.d)", at: start)
        }
        return .zeroBased(day)
    }

    /// "/[+-]hh[:mm[:ss]]", or 02:00:00 when absent.
    mutating func transitionTime(maximumHours: Int) throws(TZifError) -> Int64 {
        guard peek == UInt8(ascii: "/") else { return 7200 }
        advance()
        let at = position
        if maximumHours <= 24, peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") {
            throw TZifError("a signed transition time needs TZif version 3", at: at)
        }
        return try offset(maximumHours: maximumHours)
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        var value = 0
        let start = position
        while let byte = peek, isDigit(byte), position - start < maximumDigits {
            value = value * 10 + Int(byte - 0x30)
            advance()
        }
        return position > start ? value : nil
    }

    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
