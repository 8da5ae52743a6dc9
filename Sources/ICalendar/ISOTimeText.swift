import StableHash

/// Dates and times as skills take and return them: ISO 8601 text such as `2026-12-01`,
/// `2026-12-01T10:00`, `2026-12-01T10:00:00+01:00` or `2026-12-01T09:00:00Z`.
public enum ISOTimeText {
    /// What a text names.
    public enum Value: Sendable, Equatable {
        /// A whole day.
        case date(CivilDateTime)
        /// A wall-clock time without an offset (read in the user's zone).
        case local(CivilDateTime)
        /// An exact instant: seconds since the epoch.
        case instant(Int64)
    }

    /// Reads `text` (a `T` or a space between date and time; seconds and fractions optional; `Z` or
    /// `±hh:mm`); nil when it is not such a date.
    public static func parse(_ text: String) -> Value? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), bytes.count >= 10, bytes[4] == 0x2D, let month = number(5, 2), bytes[7] == 0x2D,
            let day = number(8, 2)
        else { return nil }
        var civil = CivilDateTime(year: year, month: month, day: day)
        guard civil.isValid else { return nil }
        if bytes.count == 10 { return .date(civil) }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "t"),
            let hour = number(11, 2), bytes.count >= 16, bytes[13] == 0x3A, let minute = number(14, 2)
        else { return nil }
        civil.hour = hour
        civil.minute = minute
        var index = 16
        if index < bytes.count, bytes[index] == 0x3A {
            guard let second = number(17, 2) else { return nil }
            civil.second = second
            index = 19
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            }
        }
        guard civil.isValid, civil.second < 60 else { return nil }
        if index == bytes.count { return .local(civil) }
        if bytes.count == index + 1, bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            return .instant(civil.secondsSinceEpoch)
        }
        guard bytes.count == index + 6, bytes[index] == 0x2B || bytes[index] == 0x2D, bytes[index + 3] == 0x3A,
            let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours < 24, minutes < 60
        else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (bytes[index] == 0x2D ? -1 : 1)
        return .instant(civil.secondsSinceEpoch - Int64(offset))
    }

    /// `2026-12-01T10:00:00+01:00` (`Z` for UTC) for an instant shown in `zone`.
    public static func format(_ seconds: Int64, in zone: any ZoneRules) -> String {
        let offset = zone.offset(atUTC: seconds)
        let local = CivilDateTime(secondsSinceEpoch: seconds + Int64(offset))
        return local.description + offsetText(offset)
    }

    /// `+01:00`, `-05:30`, or `Z` for zero.
    public static func offsetText(_ seconds: Int) -> String {
        if seconds == 0 { return "Z" }
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + pad(minutes / 60) + ":" + pad(minutes % 60)
    }

    /// `10:00` for an instant shown in `zone`.
    public static func clock(_ seconds: Int64, in zone: any ZoneRules) -> String {
        let local = zone.local(atUTC: seconds)
        return pad(local.hour) + ":" + pad(local.minute)
    }
}

/// UIDs for components a skill creates.
public enum ComponentUID {
    /// The UID for a call's idempotency key: the same key always gives the same UID (two 64-bit FNV-1a
    /// hashes of it), so a retried call finds the component it already made. An empty key gets a random UID.
    public static func make(idempotencyKey key: String, domain: String = "skillhost") -> String {
        guard !key.isEmpty else {
            var generator = SystemRandomNumberGenerator()
            return hex(generator.next()) + hex(generator.next()) + "@" + domain
        }
        return hex(FNV1a.hash64(key)) + hex(FNV1a.hash64(key, seed: 0x6c62_272e_07bb_0142)) + "@" + domain
    }

    private static func hex(_ value: UInt64) -> String { FNV1a.hex(value) }
}
