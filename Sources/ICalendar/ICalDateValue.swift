/// A DATE or DATE-TIME property value (RFC 5545 sections 3.3.4, 3.3.5) with how it is anchored: a date
/// (all-day), a floating wall-clock time, a UTC time, or a wall-clock time in a named zone (`TZID`).
public struct ICalDateValue: Sendable, Equatable {
    /// How the wall-clock time is anchored.
    public enum Kind: Sendable, Equatable {
        /// `VALUE=DATE`: a whole day, no time.
        case date
        /// No zone: the same wall-clock time wherever the reader is.
        case floating
        /// UTC (`…Z`).
        case utc
        /// In the zone the `TZID` parameter names.
        case zoned(String)
    }

    /// The wall-clock date and time (midnight for a date).
    public var local: CivilDateTime
    public var kind: Kind

    public init(_ local: CivilDateTime, _ kind: Kind) {
        self.local = local
        self.kind = kind
    }

    /// Whether it is a whole day.
    public var isDate: Bool { kind == .date }

    /// The zone's id for a `TZID` time.
    public var timeZoneID: String? {
        if case .zoned(let id) = kind { return id }
        return nil
    }

    /// Reads `property`'s value (its `VALUE` and `TZID` parameters decide the kind).
    /// - Throws: ``ICalendarError`` at the property's line when the value is not a date or date-time.
    public init(_ property: ContentLine) throws(ICalendarError) {
        try self.init(text: property.value.trimmingSpaces, tzid: property.parameter("TZID"), property: property)
    }

    /// Reads one value of a (possibly comma-separated) date list such as EXDATE or RDATE.
    init(text: String, tzid: String?, property: ContentLine) throws(ICalendarError) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        let failure = ICalendarError(
            line: property.line, column: property.name.count + 2,
            message: "\(property.name) value \"\(text)\" is not a date or date-time",
            remedy: "write a date as 20261201 (with ;VALUE=DATE) or a time as 20261201T100000 (Z for UTC)")
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8) else { throw failure }
        if bytes.count == 8 {
            let date = CivilDateTime(year: year, month: month, day: day)
            guard date.isValid else { throw failure }
            self.init(date, .date)
            return
        }
        guard bytes.count >= 15, bytes[8] == UInt8(ascii: "T"), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15)
        else { throw failure }
        let local = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard local.isValid else { throw failure }
        if bytes.count == 16, bytes[15] == UInt8(ascii: "Z") {
            self.init(local, .utc)
        } else if bytes.count == 15 {
            self.init(local, tzid.map { .zoned($0) } ?? .floating)
        } else {
            throw failure
        }
    }

    /// The value as written: `20261201`, `20261201T100000`, `20261201T090000Z`.
    public var valueText: String {
        let date = "\(pad(local.year, 4))\(pad(local.month))\(pad(local.day))"
        if kind == .date { return date }
        return date + "T\(pad(local.hour))\(pad(local.minute))\(pad(local.second))" + (kind == .utc ? "Z" : "")
    }

    /// A property `name` holding this value, with `VALUE=DATE` or `TZID` as its kind needs.
    public func property(_ name: String) -> ContentLine {
        switch kind {
        case .date: return ContentLine(name, [.init("VALUE", ["DATE"])], value: valueText)
        case .zoned(let id): return ContentLine(name, [.init("TZID", [id])], value: valueText)
        case .floating, .utc: return ContentLine(name, value: valueText)
        }
    }

    /// Every value of a date list property (EXDATE, RDATE), each with the property's `TZID`.
    public static func list(_ property: ContentLine) throws(ICalendarError) -> [ICalDateValue] {
        var values: [ICalDateValue] = []
        for part in property.value.split(separator: ",") {
            values.append(
                try ICalDateValue(
                    text: String(part).trimmingSpaces, tzid: property.parameter("TZID"), property: property))
        }
        return values
    }
}
