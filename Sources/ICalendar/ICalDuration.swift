/// A DURATION value (RFC 5545 section 3.3.6): nominal days (weeks count as 7) and exact seconds.
public struct ICalDuration: Sendable, Equatable {
    /// Whole days, added to the wall-clock date.
    public var days: Int
    /// Seconds, added to the instant.
    public var seconds: Int

    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }

    /// Reads `P1W`, `P2D`, `PT1H30M`, `-PT15M`, `P1DT12H`.
    /// - Returns: nil when `text` is not a duration.
    public init?(_ text: String) {
        var characters = Substring(text.trimmingSpaces)
        var sign = 1
        if characters.first == "-" || characters.first == "+" {
            if characters.first == "-" { sign = -1 }
            characters.removeFirst()
        }
        guard characters.first == "P" else { return nil }
        characters.removeFirst()
        var days = 0
        var seconds = 0
        var inTime = false
        var number: Int?
        var sawUnit = false
        for character in characters {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = (number ?? 0) * 10 + digit
                guard number! < 100_000_000 else { return nil }
                continue
            }
            if character == "T" {
                guard !inTime, number == nil else { return nil }
                inTime = true
                continue
            }
            guard let value = number else { return nil }
            switch (character, inTime) {
            case ("W", false): days += value * 7
            case ("D", false): days += value
            case ("H", true): seconds += value * 3600
            case ("M", true): seconds += value * 60
            case ("S", true): seconds += value
            default: return nil
            }
            number = nil
            sawUnit = true
        }
        guard sawUnit, number == nil else { return nil }
        self.init(days: sign * days, seconds: sign * seconds)
    }

    /// The value as written: `PT1H30M`, `P1D`, `PT0S`.
    public var valueText: String {
        let negative = days < 0 || seconds < 0
        let days = abs(self.days)
        let seconds = abs(self.seconds)
        var text = negative ? "-P" : "P"
        if days > 0 { text += "\(days)D" }
        if seconds > 0 || days == 0 {
            text += "T"
            if seconds >= 3600 { text += "\(seconds / 3600)H" }
            if seconds % 3600 >= 60 { text += "\(seconds % 3600 / 60)M" }
            if seconds % 60 > 0 || seconds == 0 { text += "\(seconds % 60)S" }
        }
        return text
    }
}
