/// An ECMA-262 regular expression in unicode mode, as JSON Schema's `pattern`, `patternProperties` and
/// `format: "regex"` use it: compiled once, searched (unanchored) many times. Small patterns without
/// backreferences or lookaround run on a linear-time ``BitsetMatcher``; the rest backtrack with a step
/// budget, so a hostile pattern cannot hang validation either way.
struct ECMARegex: Sendable {
    /// The outcome of a search.
    enum SearchResult: Equatable {
        case match
        case noMatch
        /// The search ran out of ``SchemaLimits/regexStepBudget`` steps.
        case budgetExceeded
    }

    /// The pattern as written.
    let source: String
    private let program: RegexProgram
    private let anchoredAtStart: Bool
    /// The linear-time matcher, for programs small and simple enough.
    private let bitset: BitsetMatcher?
    /// The table-driven form of ``bitset`` for ASCII input, when small enough, built on first use.
    private let dfa: LazyAsciiDFA?

    /// Compiles `source`.
    /// - Throws: ``RegexSyntaxError`` saying what is wrong and where.
    init(_ source: String) throws(RegexSyntaxError) {
        self.source = source
        var parser = RegexParser(source)
        let (syntax, groups) = try parser.parse()
        program = try RegexProgram.compile(syntax, groups: groups, recordsCaptures: parser.hasBackreferences)
        bitset = BitsetMatcher(program)
        switch syntax {
        case .lineStart: anchoredAtStart = true
        case .sequence(let items): if case .lineStart? = items.first { anchoredAtStart = true } else { anchoredAtStart = false }
        default: anchoredAtStart = false
        }
        let anchored = anchoredAtStart
        dfa = bitset.map { LazyAsciiDFA($0, anchored: anchored) }
    }

    /// Searches `text` for a match anywhere (JSON Schema patterns are not implicitly anchored).
    func search(_ text: String) -> SearchResult { search(text, backtrackingOnly: false) }

    /// ``search(_:)``; `backtrackingOnly` bypasses the bitset matcher (tests compare the two engines).
    func search(_ text: String, backtrackingOnly: Bool) -> SearchResult {
        if let dfa, !backtrackingOnly, let found = text.utf8.withContiguousStorageIfAvailable({ dfa.search($0) }),
            let found
        {
            return found ? .match : .noMatch
        }
        var text = text
        let ascii: SearchResult? = text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return nil }
            return search(in: bytes, backtrackingOnly: backtrackingOnly)
        }
        if let ascii { return ascii }
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { scalars.append(scalar.value) }
        return scalars.withUnsafeBufferPointer { search(in: $0, backtrackingOnly: backtrackingOnly) }
    }

    /// Whether the linear-time bitset matcher handles this pattern.
    var usesBitsetMatcher: Bool { bitset != nil }

    /// Whether a search built the pattern's ASCII automaton (tests: compiling alone builds none).
    var builtAutomaton: Bool { dfa?.isBuilt ?? false }

    /// Tries every start position (only the first when the pattern begins with `^`).
    private func search<Element: FixedWidthInteger & UnsignedInteger>(
        in input: UnsafeBufferPointer<Element>, backtrackingOnly: Bool
    ) -> SearchResult {
        if let bitset, !backtrackingOnly { return bitset.search(input, anchored: anchoredAtStart) ? .match : .noMatch }
        var machine = RegexMachine(input: input, budget: SchemaLimits.regexStepBudget, slots: program.captureSlots)
        let lastStart = anchoredAtStart ? 0 : input.count
        for start in 0...lastStart {
            switch machine.run(program, from: start) {
            case .matched: return .match
            case .failed: continue
            case .budgetExceeded: return .budgetExceeded
            }
        }
        return .noMatch
    }

    /// Whether `text` contains a match (a search over budget counts as no match).
    func matches(_ text: String) -> Bool { search(text) == .match }
}
