/// A deterministic automaton over ASCII input, built at compile time from a ``BitsetMatcher``: one table
/// lookup per character instead of an NFA step and an epsilon closure. Each automaton state is a set of
/// NFA states (closed under the epsilon moves that hold in mid-input); `^` and `$` are settled at the
/// first and last position. Patterns with `\b`/`\B`, or whose automaton would exceed ``maximumStates``,
/// keep the bitset matcher.
struct AsciiDFA: Sendable {
    /// The most automaton states built (the table holds 128 entries per state).
    static let maximumStates = 128

    /// `transitions[state << 7 | byte]`: the state after reading `byte`.
    private let transitions: [UInt8]
    /// Per state: the match state is reached (the search can stop).
    private let matchesNow: [Bool]
    /// Per state: the match state is reached when the input ends here (`$` holds).
    private let matchesAtEnd: [Bool]
    /// The state at position 0 of a non-empty input (`^` holds).
    private let start: UInt8
    /// The state no match can come from (anchored patterns only), or nil.
    private let dead: UInt8?
    /// Whether the empty string matches.
    private let matchesEmpty: Bool

    /// The automaton for `matcher`, searching only at position 0 when `anchored`; nil when the pattern
    /// has word boundaries or needs more than ``maximumStates`` states.
    init?(_ matcher: BitsetMatcher, anchored: Bool) {
        guard !matcher.hasWordBoundaries else { return nil }
        let restart: UInt64 = anchored ? 0 : 1
        let first = matcher.closure(1, passing: matcher.lineStarts)
        var sets: [UInt64] = [first]
        var index: [UInt64: Int] = [first: 0]
        var transitions: [UInt8] = []
        var next = 0
        while next < sets.count {
            let states = sets[next]
            next += 1
            for byte in 0..<128 {
                let moved = matcher.closure((states & matcher.asciiAccepts[byte]) << 1 | restart, passing: 0)
                if let known = index[moved] {
                    transitions.append(UInt8(known))
                    continue
                }
                guard sets.count < Self.maximumStates else { return nil }
                index[moved] = sets.count
                transitions.append(UInt8(sets.count))
                sets.append(moved)
            }
        }
        self.transitions = transitions
        matchesNow = sets.map { $0 & matcher.matchState != 0 }
        matchesAtEnd = sets.map { matcher.closure($0, passing: matcher.lineEnds) & matcher.matchState != 0 }
        start = 0
        dead = index[0].map(UInt8.init)
        matchesEmpty = matcher.closure(1, passing: matcher.lineStarts | matcher.lineEnds) & matcher.matchState != 0
    }

    /// Whether the pattern matches anywhere in `input` (UTF-8); nil when it holds a non-ASCII character
    /// before the outcome is known (the caller then uses the general engines).
    func search(_ input: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let last = input.indices.last else { return matchesEmpty }
        let dead = self.dead.map(Int.init) ?? -1
        return transitions.withUnsafeBufferPointer { transitions -> Bool? in
            var state = Int(start)
            if matchesNow[state] { return true }
            for position in 0...last {
                let byte = input[position]
                if byte >= 0x80 { return nil }
                state = Int(transitions[state << 7 | Int(byte)])
                if position == last { return matchesAtEnd[state] }
                if matchesNow[state] { return true }
                if state == dead { return false }
            }
            return false
        }
    }
}
