import ZoneInfo

/// A time zone as the clock skills name and use it: the name they report and the zone's rules, read from the
/// system's time-zone database (`/usr/share/zoneinfo`) without Foundation.
struct ClockZone {
    /// The name reported in results: the IANA name, "UTC", or "GMT+0530" for a fixed offset.
    let name: String
    /// Offsets and daylight saving time.
    let rules: ZoneRules

    static let utc = ClockZone(name: "UTC", rules: .utc)

    /// Abbreviations understood as zones (the table Foundation's `TimeZone(abbreviation:)` uses).
    static let abbreviations: [String: String] = [
        "ADT": "America/Halifax", "AKDT": "America/Juneau", "AKST": "America/Juneau",
        "ART": "America/Argentina/Buenos_Aires", "AST": "America/Halifax", "BDT": "Asia/Dhaka",
        "BRST": "America/Sao_Paulo", "BRT": "America/Sao_Paulo", "BST": "Europe/London", "CAT": "Africa/Harare",
        "CDT": "America/Chicago", "CEST": "Europe/Paris", "CET": "Europe/Paris", "CLST": "America/Santiago",
        "CLT": "America/Santiago", "COT": "America/Bogota", "CST": "America/Chicago", "EAT": "Africa/Addis_Ababa",
        "EDT": "America/New_York", "EEST": "Europe/Athens", "EET": "Europe/Athens", "EST": "America/New_York",
        "GMT": "UTC", "GST": "Asia/Dubai", "HKT": "Asia/Hong_Kong", "HST": "Pacific/Honolulu", "ICT": "Asia/Bangkok",
        "IRST": "Asia/Tehran", "IST": "Asia/Kolkata", "JST": "Asia/Tokyo", "KST": "Asia/Seoul",
        "MDT": "America/Denver", "MSD": "Europe/Moscow", "MSK": "Europe/Moscow", "MST": "America/Phoenix",
        "NDT": "America/St_Johns", "NST": "America/St_Johns", "NZDT": "Pacific/Auckland", "NZST": "Pacific/Auckland",
        "PDT": "America/Los_Angeles", "PET": "America/Lima", "PHT": "Asia/Manila", "PKT": "Asia/Karachi",
        "PST": "America/Los_Angeles", "SGT": "Asia/Singapore", "TRT": "Europe/Istanbul", "UTC": "UTC",
        "WAT": "Africa/Lagos", "WEST": "Europe/Lisbon", "WET": "Europe/Lisbon", "WIT": "Asia/Jakarta",
    ]

    /// A zone by IANA name ("Europe/Paris", any case), by city ("Paris", "new york": the zone named after
    /// it), by abbreviation ("UTC", "GMT", "Z", "PST", "CET"), or as a UTC offset ("GMT+5", "UTC-05:30").
    static func named(_ name: String, in database: ZoneInfoDirectory = .system) -> ClockZone? {
        let trimmed = trimmed(name)
        let lowered = trimmed.lowercased()
        if ["utc", "gmt", "z"].contains(lowered) { return .utc }
        if trimmed.count <= 5, trimmed.allSatisfy(\.isLetter), let identifier = abbreviations[trimmed.uppercased()] {
            return identifier == "UTC" ? .utc : database.zone(named: identifier).map { ClockZone(name: identifier, rules: ZoneRules($0)) }
        }
        if let zone = identified(trimmed, in: database) { return zone }
        let identifiers = database.zoneNames()
        if let identifier = identifiers.first(where: { $0.lowercased() == lowered }) {
            return identified(identifier, in: database)
        }
        let city = "/" + String(lowered.map { $0 == " " ? "_" : $0 })
        if !trimmed.utf8.contains(UInt8(ascii: "/")), let identifier = identifiers.first(where: { $0.lowercased().hasSuffix(city) }) {
            return identified(identifier, in: database)
        }
        return nil
    }

    /// A zone by its exact name: a UTC offset name, or a file of the database.
    private static func identified(_ identifier: String, in database: ZoneInfoDirectory) -> ClockZone? {
        if let offset = offsetSeconds(inName: identifier) { return fixed(offset) }
        return database.zone(named: identifier).map { ClockZone(name: identifier, rules: ZoneRules($0)) }
    }

    /// A zone always `seconds` east of UTC, named like "GMT+0530" ("UTC" for 0).
    static func fixed(_ seconds: Int) -> ClockZone {
        guard seconds != 0 else { return .utc }
        let minutes = abs(seconds) / 60
        let name = "GMT" + (seconds < 0 ? "-" : "+") + twoDigits(minutes / 60) + twoDigits(minutes % 60)
        return ClockZone(name: name, rules: ZoneRules(fixedOffset: Int32(seconds), abbreviation: name))
    }

    /// The offset a name such as "GMT+5", "GMT+05", "UTC-0530", "GMT+5:30" or "GMT+05.30" stands for (at
    /// most 18 hours either way); nil when it is not such a name.
    static func offsetSeconds(inName name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count >= 5, bytes.count <= 9, bytes[0..<3].elementsEqual("GMT".utf8) || bytes[0..<3].elementsEqual("UTC".utf8),
            bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-")
        else { return nil }
        let rest = bytes[4...]
        func digits(_ part: ArraySlice<UInt8>) -> Int? {
            guard !part.isEmpty, part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        var hours: Int
        var minutes = 0
        if let separator = rest.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) {
            guard (1...2).contains(separator - rest.startIndex), rest.endIndex - separator == 3,
                let h = digits(rest[..<separator]), let m = digits(rest[(separator + 1)...])
            else { return nil }
            (hours, minutes) = (h, m)
        } else if rest.count <= 2, let h = digits(rest) {
            hours = h
        } else if rest.count == 4, let h = digits(rest.prefix(2)), let m = digits(rest.suffix(2)), m < 60 {
            (hours, minutes) = (h, m)
        } else {
            return nil
        }
        let total = hours * 3600 + minutes * 60
        guard total <= 18 * 3600 else { return nil }
        return bytes[3] == UInt8(ascii: "-") ? -total : total
    }

    private static func trimmed(_ text: String) -> String {
        let characters = Array(text)
        // Foundation's `.whitespaces`: blanks and tabs, not line breaks.
        func isBlank(_ character: Character) -> Bool { character.isWhitespace && !character.isNewline }
        guard let first = characters.firstIndex(where: { !isBlank($0) }), let last = characters.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(characters[first...last])
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
