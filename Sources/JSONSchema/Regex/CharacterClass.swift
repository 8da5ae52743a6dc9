/// A set of code points: `[a-z\d]`, `\w`, `\p{Letter}`. ASCII membership is a precomputed bitmap.
struct CharacterClass: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    /// Ranges beyond ASCII.
    private var ranges: [ClosedRange<UInt32>] = []
    /// Unicode properties (beyond ASCII), each possibly negated.
    private var properties: [(UnicodeProperty, Bool)] = []
    /// Classes included negated, e.g. `\D` or `\P{L}` inside brackets (beyond ASCII).
    private var negatedMembers: [CharacterClass] = []
    /// Whether the whole class is negated (`[^...]`).
    var negated = false

    init() {}

    /// Adds one code point range.
    mutating func add(_ range: ClosedRange<UInt32>) {
        if range.lowerBound < 128 {
            for code in range.lowerBound...min(range.upperBound, 127) { setASCII(code) }
        }
        if range.upperBound >= 128 { ranges.append(max(range.lowerBound, 128)...range.upperBound) }
    }

    /// Adds a Unicode property (or its complement).
    mutating func add(_ property: UnicodeProperty, negated: Bool) {
        for code in UInt32(0)..<128 where property.contains(Unicode.Scalar(code)!) != negated { setASCII(code) }
        properties.append((property, negated))
    }

    /// Adds every member of another class (respecting its negation).
    mutating func add(_ other: CharacterClass) {
        low |= other.negated ? ~other.low : other.low
        high |= other.negated ? ~other.high : other.high
        if other.negated {
            var positive = other
            positive.negated = false
            negatedMembers.append(positive)
        } else {
            ranges += other.ranges
            properties += other.properties
            negatedMembers += other.negatedMembers
        }
    }

    private mutating func setASCII(_ code: UInt32) {
        if code < 64 { low |= 1 << UInt64(code) } else { high |= 1 << UInt64(code - 64) }
    }

    /// Whether `code` is in the set.
    func contains(_ code: UInt32) -> Bool {
        if code < 64 { return (low >> UInt64(code)) & 1 == 1 ? !negated : negated }
        if code < 128 { return (high >> UInt64(code - 64)) & 1 == 1 ? !negated : negated }
        return containsNonASCII(code) != negated
    }

    private func containsNonASCII(_ code: UInt32) -> Bool {
        for range in ranges where range.contains(code) { return true }
        if !properties.isEmpty || !negatedMembers.isEmpty, let scalar = Unicode.Scalar(code) {
            for (property, negated) in properties where property.contains(scalar) != negated { return true }
        }
        for member in negatedMembers where !member.containsNonASCII(code) { return true }
        return false
    }

    // MARK: Escapes

    static let digits: CharacterClass = {
        var set = CharacterClass()
        set.add(0x30...0x39)
        return set
    }()

    static let wordCharacters: CharacterClass = {
        var set = CharacterClass()
        set.add(0x30...0x39)
        set.add(0x41...0x5A)
        set.add(0x61...0x7A)
        set.add(0x5F...0x5F)
        return set
    }()

    /// ECMA-262 WhiteSpace and LineTerminator.
    static let whitespace: CharacterClass = {
        var set = CharacterClass()
        for code: UInt32 in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF] {
            set.add(code...code)
        }
        set.add(0x2000...0x200A)
        return set
    }()

    /// The class for `\d`, `\D`, `\s`, `\S`, `\w`, `\W`.
    static func escape(_ letter: Character) -> CharacterClass? {
        var set: CharacterClass
        switch letter.lowercased() {
        case "d": set = digits
        case "s": set = whitespace
        case "w": set = wordCharacters
        default: return nil
        }
        set.negated = letter.isUppercase
        return set
    }
}
