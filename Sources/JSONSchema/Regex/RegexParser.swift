/// Parses ECMA-262 pattern text in unicode mode (what JSON Schema's `pattern` and `format: regex` mean):
/// strict escapes (`\a` is an error), named groups, lookahead and lookbehind, `\p{…}`. As a leniency for
/// real-world schemas, a lone `]`, `{` or `}` is a literal.
struct RegexParser {
    private let scalars: [UInt32]
    private var position = 0
    private var groupCount = 0
    private var groupNames: [String: Int] = [:]
    private var backreferences: [(Int, Int)] = []
    private var namedBackreferences: [(String, Int)] = []
    /// How many groups enclose the position: each level recurses through the parser.
    private var depth = 0

    /// How deeply groups may nest (a fuzzed pattern with ~1,300 nested groups overflowed the stack; real
    /// patterns nest a few levels).
    static let maximumGroupDepth = 128

    init(_ source: String) { scalars = source.unicodeScalars.map(\.value) }

    /// Whether the pattern has backreferences (so captures must be recorded).
    var hasBackreferences: Bool { !backreferences.isEmpty || !namedBackreferences.isEmpty }

    /// The parsed pattern and the number of capturing groups.
    mutating func parse() throws(RegexSyntaxError) -> (RegexSyntax, Int) {
        let syntax = try parseDisjunction()
        if position < scalars.count { throw fail("unmatched ')'") }
        var resolved = syntax
        for (name, at) in namedBackreferences where groupNames[name] == nil {
            throw RegexSyntaxError(reason: "\\k<\(name)> names no group (offset \(at))")
        }
        for (number, at) in backreferences where number > groupCount {
            throw RegexSyntaxError(reason: "backreference \\\(number) but only \(groupCount) groups (offset \(at))")
        }
        if !namedBackreferences.isEmpty { resolved = resolveNames(resolved) }
        return (resolved, groupCount)
    }

    /// Replaces named backreferences (numbered -1, -2, … while parsing) by their group numbers.
    private func resolveNames(_ syntax: RegexSyntax) -> RegexSyntax {
        switch syntax {
        case .backreference(let number) where number < 0:
            return .backreference(groupNames[namedBackreferences[-1 - number].0] ?? 0)
        case .sequence(let items): return .sequence(items.map(resolveNames))
        case .alternation(let items): return .alternation(items.map(resolveNames))
        case .group(let inner, let capture): return .group(resolveNames(inner), capture: capture)
        case .quantified(let inner, let min, let max, let greedy):
            return .quantified(resolveNames(inner), min: min, max: max, greedy: greedy)
        case .lookaround(let inner, let behind, let negated):
            return .lookaround(resolveNames(inner), behind: behind, negated: negated)
        default: return syntax
        }
    }

    private func fail(_ reason: String) -> RegexSyntaxError {
        RegexSyntaxError(reason: "\(reason) at offset \(position)")
    }

    private func peek(_ offset: Int = 0) -> UInt32? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func eat(_ character: Character) -> Bool {
        guard peek() == character.unicodeScalars.first!.value else { return false }
        position += 1
        return true
    }

    private mutating func parseDisjunction() throws(RegexSyntaxError) -> RegexSyntax {
        var alternatives = [try parseAlternative()]
        while eat("|") { alternatives.append(try parseAlternative()) }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func parseAlternative() throws(RegexSyntaxError) -> RegexSyntax {
        var items: [RegexSyntax] = []
        while let next = peek(), next != 0x7C, next != 0x29 {  // '|' ')'
            items.append(try parseTerm())
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func parseTerm() throws(RegexSyntaxError) -> RegexSyntax {
        let start = position
        let atom: RegexSyntax
        var quantifiable = true
        switch peek()! {
        case 0x5E: position += 1; atom = .lineStart; quantifiable = false
        case 0x24: position += 1; atom = .lineEnd; quantifiable = false
        case 0x2E: position += 1; atom = .anyCharacter
        case 0x28: (atom, quantifiable) = try parseGroup()
        case 0x5B: atom = .characterClass(try parseClass())
        case 0x5C:
            if peek(1) == 0x62 || peek(1) == 0x42 {  // \b \B
                atom = .wordBoundary(negated: peek(1) == 0x42)
                position += 2
                quantifiable = false
            } else {
                atom = try parseAtomEscape()
            }
        case 0x2A, 0x2B, 0x3F: throw fail("nothing to repeat")
        case 0x7B:
            if (try? quantifierBounds()) != nil { throw fail("nothing to repeat") }
            position += 1
            atom = .character(0x7B)
        default:
            atom = .character(scalars[position])
            position += 1
        }
        guard let next = peek() else { return atom }
        var bounds: (Int, Int?)?
        switch next {
        case 0x2A: position += 1; bounds = (0, nil)
        case 0x2B: position += 1; bounds = (1, nil)
        case 0x3F: position += 1; bounds = (0, 1)
        case 0x7B:
            let saved = position
            if let parsed = try? quantifierBounds() { bounds = parsed } else { position = saved }
        default: break
        }
        guard let (minimum, maximum) = bounds else { return atom }
        if !quantifiable { position = start; throw fail("this assertion cannot be repeated") }
        let greedy = !eat("?")
        if let maximum, maximum < minimum { throw fail("quantifier range out of order") }
        return .quantified(atom, min: minimum, max: maximum, greedy: greedy)
    }

    /// Parses `{n}`, `{n,}` or `{n,m}` at the current position (which is '{').
    private mutating func quantifierBounds() throws(RegexSyntaxError) -> (Int, Int?) {
        position += 1
        guard let minimum = number() else { throw fail("expected a number in {}") }
        var maximum: Int? = minimum
        if eat(",") { maximum = number() }
        guard eat("}") else { throw fail("expected '}'") }
        return (minimum, maximum)
    }

    private mutating func number() -> Int? {
        var value: Int?
        while let digit = peek(), digit >= 0x30, digit <= 0x39 {
            value = min((value ?? 0) * 10 + Int(digit - 0x30), 1_000_000)
            position += 1
        }
        return value
    }

    private mutating func parseGroup() throws(RegexSyntaxError) -> (RegexSyntax, Bool) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumGroupDepth else {
            throw fail("groups nested deeper than \(Self.maximumGroupDepth); flatten the pattern")
        }
        position += 1
        if eat("?") {
            if eat(":") { return (try closeGroup(try parseDisjunction()), true) }
            if eat("=") { return (.lookaround(try closeGroup(try parseDisjunction()), behind: false, negated: false), false) }
            if eat("!") { return (.lookaround(try closeGroup(try parseDisjunction()), behind: false, negated: true), false) }
            if eat("<") {
                if eat("=") { return (.lookaround(try closeGroup(try parseDisjunction()), behind: true, negated: false), false) }
                if eat("!") { return (.lookaround(try closeGroup(try parseDisjunction()), behind: true, negated: true), false) }
                let name = try groupName()
                if groupNames[name] != nil { throw fail("duplicate group name '\(name)'") }
                groupCount += 1
                let number = groupCount
                groupNames[name] = number
                return (.group(try closeGroup(try parseDisjunction()), capture: number), true)
            }
            throw fail("invalid group syntax '(?'")
        }
        groupCount += 1
        let number = groupCount
        return (.group(try closeGroup(try parseDisjunction()), capture: number), true)
    }

    private mutating func closeGroup(_ inner: RegexSyntax) throws(RegexSyntaxError) -> RegexSyntax {
        guard eat(")") else { throw fail("unterminated group") }
        return inner
    }

    /// Reads `name>` after `(?<` or `\k<`.
    private mutating func groupName() throws(RegexSyntaxError) -> String {
        var name = ""
        while let next = peek(), next != 0x3E {
            guard let scalar = Unicode.Scalar(next),
                scalar.properties.isIDContinue || scalar == "$" || (name.isEmpty ? false : scalar == "\u{200C}")
            else { throw fail("invalid character in a group name") }
            if name.isEmpty && !(scalar.properties.isIDStart || scalar == "$" || scalar == "_") {
                throw fail("a group name must start with a letter")
            }
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard eat(">"), !name.isEmpty else { throw fail("unterminated group name") }
        return name
    }

    private mutating func parseAtomEscape() throws(RegexSyntaxError) -> RegexSyntax {
        position += 1
        guard let next = peek() else { throw fail("'\\' at the end of the pattern") }
        if next >= 0x31, next <= 0x39 {
            let at = position
            let number = self.number() ?? 0
            backreferences.append((number, at))
            return .backreference(number)
        }
        if next == 0x6B {  // \k<name>
            position += 1
            guard eat("<") else { throw fail("\\k must be followed by <name>") }
            let at = position
            let name = try groupName()
            namedBackreferences.append((name, at))
            return .backreference(-1 - (namedBackreferences.count - 1))
        }
        if let set = try classEscape() { return .characterClass(set) }
        return .character(try characterEscape(inClass: false))
    }

    /// `\d \D \s \S \w \W \p{…} \P{…}` after the backslash, or nil when the escape is something else.
    private mutating func classEscape() throws(RegexSyntaxError) -> CharacterClass? {
        guard let next = peek(), let scalar = Unicode.Scalar(next) else { return nil }
        if let set = CharacterClass.escape(Character(scalar)) {
            position += 1
            return set
        }
        guard next == 0x70 || next == 0x50 else { return nil }  // p P
        position += 1
        guard eat("{") else { throw fail("\\p must be followed by {property}") }
        var name = ""
        while let character = peek(), character != 0x7D, let scalar = Unicode.Scalar(character) {
            name.unicodeScalars.append(scalar)
            position += 1
        }
        guard eat("}") else { throw fail("unterminated \\p{") }
        guard let property = UnicodeProperty(name: name) else { throw fail("unknown Unicode property '\(name)'") }
        var set = CharacterClass()
        set.add(property, negated: next == 0x50)
        return set
    }

    /// A character escape after the backslash: control, `\cX`, `\0`, `\xHH`, `\uHHHH`, `\u{…}`, identity.
    private mutating func characterEscape(inClass: Bool) throws(RegexSyntaxError) -> UInt32 {
        let next = peek()!
        position += 1
        switch next {
        case 0x66: return 0x0C  // f
        case 0x6E: return 0x0A  // n
        case 0x72: return 0x0D  // r
        case 0x74: return 0x09  // t
        case 0x76: return 0x0B  // v
        case 0x62 where inClass: return 0x08  // \b in a class is backspace
        case 0x2D where inClass: return 0x2D  // \-
        case 0x63:  // \cX
            guard let letter = peek(), (0x41...0x5A).contains(letter) || (0x61...0x7A).contains(letter) else {
                throw fail("\\c must be followed by a letter")
            }
            position += 1
            return letter % 32
        case 0x30:
            if let digit = peek(), digit >= 0x30, digit <= 0x39 { throw fail("invalid octal escape") }
            return 0
        case 0x78:  // \xHH
            guard let value = hexDigits(2) else { throw fail("\\x must be followed by two hex digits") }
            return value
        case 0x75:  // \u
            if eat("{") {
                var value: UInt32 = 0
                var digits = 0
                while let digit = peek(), let hex = Self.hex(digit) {
                    value = value * 16 + hex
                    digits += 1
                    position += 1
                    if value > 0x10FFFF { throw fail("code point out of range") }
                }
                guard digits > 0, eat("}") else { throw fail("invalid \\u{…} escape") }
                return value
            }
            guard let value = hexDigits(4) else { throw fail("\\u must be followed by four hex digits") }
            if (0xD800...0xDBFF).contains(value), peek() == 0x5C, peek(1) == 0x75 {
                let saved = position
                position += 2
                if let low = hexDigits(4), (0xDC00...0xDFFF).contains(low) {
                    return 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                }
                position = saved
            }
            return value
        default:
            let syntax: Set<UInt32> = [0x5E, 0x24, 0x5C, 0x2E, 0x2A, 0x2B, 0x3F, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x7C, 0x2F]
            guard syntax.contains(next) else {
                position -= 1
                let shown = Unicode.Scalar(next).map { String(Character($0)) } ?? "?"
                throw fail("invalid escape '\\\(shown)'")
            }
            return next
        }
    }

    private mutating func hexDigits(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let digit = peek(offset), let hex = Self.hex(digit) else { return nil }
            value = value * 16 + hex
        }
        position += count
        return value
    }

    private static func hex(_ digit: UInt32) -> UInt32? {
        switch digit {
        case 0x30...0x39: return digit - 0x30
        case 0x41...0x46: return digit - 0x41 + 10
        case 0x61...0x66: return digit - 0x61 + 10
        default: return nil
        }
    }

    private mutating func parseClass() throws(RegexSyntaxError) -> CharacterClass {
        position += 1
        var set = CharacterClass()
        let negated = eat("^")
        while true {
            guard let next = peek() else { throw fail("unterminated character class") }
            if next == 0x5D {
                position += 1
                break
            }
            let first = try classAtom()
            if peek() == 0x2D, let after = peek(1), after != 0x5D {
                position += 1
                let second = try classAtom()
                guard case .single(let low) = first, case .single(let high) = second else {
                    throw fail("a class escape cannot be a range bound")
                }
                guard low <= high else { throw fail("character range out of order") }
                set.add(low...high)
            } else {
                switch first {
                case .single(let code): set.add(code...code)
                case .set(let other): set.add(other)
                }
            }
        }
        set.negated = negated
        return set
    }

    private enum ClassAtom {
        case single(UInt32)
        case set(CharacterClass)
    }

    private mutating func classAtom() throws(RegexSyntaxError) -> ClassAtom {
        let next = peek()!
        guard next == 0x5C else {
            position += 1
            return .single(next)
        }
        position += 1
        guard peek() != nil else { throw fail("'\\' at the end of the pattern") }
        if let set = try classEscape() { return .set(set) }
        return .single(try characterEscape(inClass: true))
    }
}
