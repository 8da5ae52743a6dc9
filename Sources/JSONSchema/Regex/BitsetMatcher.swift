/// A linear-time matcher for small regex programs (at most 64 instructions, no backreferences, no
/// lookaround): a Thompson NFA simulation whose state set is one 64-bit word. A consuming instruction's
/// successor is the next instruction, so a step over an ASCII character is `(states & accepts[c]) << 1`.
/// It never backtracks, so it needs no step budget and allocates nothing; larger or richer programs use
/// ``RegexMachine``.
struct BitsetMatcher: Sendable {
    private let instructions: [RegexInstruction]
    /// States reachable from each state through unconditional epsilon moves (itself included).
    private let epsilonClosure: [UInt64]
    /// For each ASCII character, the consuming states that accept it.
    let asciiAccepts: [UInt64]
    private let consuming: UInt64
    let lineStarts: UInt64
    let lineEnds: UInt64
    private let wordBoundaries: UInt64
    private let notWordBoundaries: UInt64
    let matchState: UInt64

    /// Whether the program has `\b` or `\B` (whose outcome depends on the neighbouring characters).
    var hasWordBoundaries: Bool { wordBoundaries | notWordBoundaries != 0 }

    /// A matcher for `program`, or nil when it is too large or needs backtracking features.
    init?(_ program: RegexProgram) {
        let instructions = program.instructions
        guard instructions.count <= 64, program.subprograms.isEmpty else { return nil }
        var direct = [UInt64](repeating: 0, count: instructions.count)
        var consuming: UInt64 = 0, lineStarts: UInt64 = 0, lineEnds: UInt64 = 0
        var wordBoundaries: UInt64 = 0, notWordBoundaries: UInt64 = 0, matchState: UInt64 = 0
        var asciiAccepts = [UInt64](repeating: 0, count: 128)
        for (pc, instruction) in instructions.enumerated() {
            let bit: UInt64 = 1 << UInt64(pc)
            switch instruction {
            case .character, .anyCharacter, .characterClass:
                consuming |= bit
                for code in UInt32(0)..<128 where Self.accepts(instruction, code) { asciiAccepts[Int(code)] |= bit }
            case .split(let first, let second): direct[pc] = 1 << UInt64(first) | 1 << UInt64(second)
            case .jump(let target): direct[pc] = 1 << UInt64(target)
            case .save, .mark, .progress: direct[pc] = 1 << UInt64(pc + 1)
            case .lineStart: lineStarts |= bit
            case .lineEnd: lineEnds |= bit
            case .wordBoundary(let negated): if negated { notWordBoundaries |= bit } else { wordBoundaries |= bit }
            case .match: matchState = bit
            case .lookaround, .backreference: return nil
            }
        }
        // Transitive closure of the unconditional epsilon moves.
        var closure = (0..<instructions.count).map { UInt64(1) << UInt64($0) | direct[$0] }
        var changed = true
        while changed {
            changed = false
            for pc in closure.indices {
                var expanded = closure[pc]
                var pending = closure[pc]
                while pending != 0 {
                    let next = pending.trailingZeroBitCount
                    pending &= pending - 1
                    expanded |= closure[next]
                }
                if expanded != closure[pc] {
                    closure[pc] = expanded
                    changed = true
                }
            }
        }
        self.instructions = instructions
        epsilonClosure = closure
        self.asciiAccepts = asciiAccepts
        self.consuming = consuming
        self.lineStarts = lineStarts
        self.lineEnds = lineEnds
        self.wordBoundaries = wordBoundaries
        self.notWordBoundaries = notWordBoundaries
        self.matchState = matchState
    }

    private static func accepts(_ instruction: RegexInstruction, _ code: UInt32) -> Bool {
        switch instruction {
        case .character(let expected): return code == expected
        case .anyCharacter: return !isLineTerminator(code)
        case .characterClass(let set): return set.contains(code)
        default: return false
        }
    }

    /// Whether the pattern matches anywhere in `input` (only at 0 when `anchored`).
    func search<Element: FixedWidthInteger & UnsignedInteger>(_ input: UnsafeBufferPointer<Element>, anchored: Bool) -> Bool {
        var states: UInt64 = 1
        var position = 0
        let count = input.count
        while true {
            states = closure(states, input, position)
            if states & matchState != 0 { return true }
            if position == count { return false }
            let code = UInt32(input[position])
            if code < 128 {
                states = (states & asciiAccepts[Int(code)]) << 1
            } else {
                var next: UInt64 = 0
                var ready = states & consuming
                while ready != 0 {
                    let pc = ready.trailingZeroBitCount
                    ready &= ready - 1
                    if Self.accepts(instructions[pc], code) { next |= 1 << UInt64(pc + 1) }
                }
                states = next
            }
            position += 1
            if !anchored { states |= 1 } else if states == 0 { return false }
        }
    }

    /// Adds every state reachable through epsilon moves (assertions that hold at `position` included).
    private func closure<Element: FixedWidthInteger & UnsignedInteger>(
        _ states: UInt64, _ input: UnsafeBufferPointer<Element>, _ position: Int
    ) -> UInt64 {
        var passing: UInt64 = 0
        if position == 0 { passing |= lineStarts }
        if position == input.count { passing |= lineEnds }
        if wordBoundaries | notWordBoundaries != 0 {
            let before = position > 0 && CharacterClass.wordCharacters.contains(UInt32(input[position - 1]))
            let after = position < input.count && CharacterClass.wordCharacters.contains(UInt32(input[position]))
            passing |= before != after ? wordBoundaries : notWordBoundaries
        }
        return closure(states, passing: passing)
    }

    /// Adds every state reachable through epsilon moves, where the assertions in `passing` hold.
    func closure(_ states: UInt64, passing: UInt64) -> UInt64 {
        var reached: UInt64 = 0
        var frontier = states
        while frontier != 0 {
            var added: UInt64 = 0
            var pending = frontier
            while pending != 0 {
                let pc = pending.trailingZeroBitCount
                pending &= pending - 1
                added |= epsilonClosure[pc]
            }
            let newlyReached = added & ~reached
            reached |= added
            // An assertion that holds here moves on to the next instruction, whose closure is needed too.
            frontier = ((newlyReached & passing) << 1) & ~reached
        }
        return reached
    }
}
