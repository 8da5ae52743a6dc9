/// The parsed form of an ECMA-262 pattern (unicode mode: code points, strict escapes).
indirect enum RegexSyntax {
    case empty
    case character(UInt32)
    /// `.`: any code point except line terminators.
    case anyCharacter
    case characterClass(CharacterClass)
    case sequence([RegexSyntax])
    case alternation([RegexSyntax])
    /// A group; `capture` is its 1-based number when it captures.
    case group(RegexSyntax, capture: Int?)
    case quantified(RegexSyntax, min: Int, max: Int?, greedy: Bool)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case lookaround(RegexSyntax, behind: Bool, negated: Bool)
    case backreference(Int)

    /// Whether this can match the empty string (loops over such a body need a progress check).
    var canMatchEmpty: Bool {
        switch self {
        case .empty, .lineStart, .lineEnd, .wordBoundary, .lookaround, .backreference: return true
        case .character, .anyCharacter, .characterClass: return false
        case .sequence(let items): return items.allSatisfy(\.canMatchEmpty)
        case .alternation(let items): return items.contains(where: \.canMatchEmpty)
        case .group(let inner, _): return inner.canMatchEmpty
        case .quantified(let inner, let min, _, _): return min == 0 || inner.canMatchEmpty
        }
    }
}

/// A syntax error in a regular expression, with the offset (in code points) where it was found.
struct RegexSyntaxError: Error, Sendable {
    /// What is wrong, e.g. "unterminated group at offset 4".
    var reason: String
}
