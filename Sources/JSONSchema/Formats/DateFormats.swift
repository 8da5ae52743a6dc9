/// RFC 3339 dates and times and ISO 8601 durations (format names `date-time`, `date`, `time`, `duration`).
enum DateFormats {
    /// `full-date "T" full-time`, case-insensitive T and Z, leap seconds only at 23:59:60 UTC-equivalent.
    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        return isDate(bytes[0..<10]) && isTime(bytes[11...])
    }

    /// `YYYY-MM-DD` with a real day of month.
    static func isDate(_ text: String) -> Bool { isDate(Array(text.utf8)[...]) }

    /// `HH:MM:SS[.frac](Z|±HH:MM)`.
    static func isTime(_ text: String) -> Bool { isTime(Array(text.utf8)[...]) }

    private static func number(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        let start = bytes.startIndex + offset
        guard start + count <= bytes.endIndex else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 10, bytes[bytes.startIndex + 4] == UInt8(ascii: "-"), bytes[bytes.startIndex + 7] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    private static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 9, bytes[bytes.startIndex + 2] == UInt8(ascii: ":"), bytes[bytes.startIndex + 5] == UInt8(ascii: ":"),
            let hour = number(bytes, 0, 2), let minute = number(bytes, 3, 2), let second = number(bytes, 6, 2),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = bytes.startIndex + 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digitsStart = index
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digitsStart else { return false }
        }
        guard index < bytes.endIndex else { return false }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.endIndex else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let rest = bytes[(index + 1)...]
            guard rest.count == 5, rest[rest.startIndex + 2] == UInt8(ascii: ":"),
                let offsetHour = number(rest, 0, 2), let offsetMinute = number(rest, 3, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default: return false
        }
        if second == 60 {
            // A leap second is only valid at 23:59:60 UTC.
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// ISO 8601 duration as RFC 3339 appendix A restricts it: `P[nY][nM][nD][T[nH][nM][nS]]` or `PnW`.
    static func isDuration(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return false }
        bytes = bytes.dropFirst()
        if bytes.last == UInt8(ascii: "W") {
            return bytes.dropLast().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } && bytes.count > 1
        }
        var inTime = false
        var units = Array("YMD")
        var nextUnit = 0
        var sawComponent = false
        var sawTimeComponent = false
        var digits = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "T"):
                guard !inTime, digits == 0 else { return false }
                inTime = true
                units = Array("HMS")
                nextUnit = 0
            default:
                // Units come in order and, once one is given, without gaps (P1Y2D and PT1H2S are invalid).
                let unit = Character(Unicode.Scalar(byte))
                guard digits > 0, let position = units.firstIndex(of: unit), position >= nextUnit else { return false }
                let started = inTime ? sawTimeComponent : sawComponent
                if started && position != nextUnit { return false }
                nextUnit = position + 1
                digits = 0
                sawComponent = true
                if inTime { sawTimeComponent = true }
            }
        }
        return digits == 0 && sawComponent && (!inTime || sawTimeComponent)
    }
}
