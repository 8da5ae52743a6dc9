/// A linear-time matcher for small regex programs (at most 64 instructions, no backreferences, no
/// lookaround): a Thompson NFA simulation whose state set is one 64-bit word. It never backtracks, so it
/// needs no step budget and allocates nothing; larger or richer programs use ``RegexMachine``.
struct BitsetMatcher: Sendable {
    private let instructions: [RegexInstruction]
    /// Unconditional epsilon successors (split, jump, save, mark, progress) of each instruction.
    private let epsilon: [UInt64]
    /// Instructions whose epsilon successor depends on the position (`^`, `$`, `\b`, `\B`).
    private let assertions: UInt64
    /// Instructions that consume one code point.
    private let consuming: UInt64
    private let matchState: UInt64

    /// A matcher for `program`, or nil when it is too large or needs backtracking features.
    init?(_ program: RegexProgram) {
        let instructions = program.instructions
        guard instructions.count <= 64, program.subprograms.isEmpty else { return nil }
        var epsilon = [UInt64](repeating: 0, count: instructions.count)
        var assertions: UInt64 = 0
        var consuming: UInt64 = 0
        var matchState: UInt64 = 0
        for (pc, instruction) in instructions.enumerated() {
            let bit: UInt64 = 1 << UInt64(pc)
            switch instruction {
            case .character, .anyCharacter, .characterClass: consuming |= bit
            case .split(let first, let second): epsilon[pc] = 1 << UInt64(first) | 1 << UInt64(second)
            case .jump(let target): epsilon[pc] = 1 << UInt64(target)
            case .save, .mark, .progress: epsilon[pc] = 1 << UInt64(pc + 1)
            case .lineStart, .lineEnd, .wordBoundary: assertions |= bit
            case .match: matchState = bit
            case .lookaround, .backreference: return nil
            }
        }
        self.instructions = instructions
        self.epsilon = epsilon
        self.assertions = assertions
        self.consuming = consuming
        self.matchState = matchState
    }

    /// Whether the pattern matches anywhere in `input` (only at 0 when `anchored`).
    func search<Element: FixedWidthInteger & UnsignedInteger>(_ input: UnsafeBufferPointer<Element>, anchored: Bool) -> Bool {
        var states: UInt64 = 0
        var position = 0
        while true {
            if position == 0 || !anchored { states |= 1 }
            states = closure(states, input, position)
            if states & matchState != 0 { return true }
            if position == input.count { return false }
            let code = UInt32(input[position])
            var next: UInt64 = 0
            var ready = states & consuming
            while ready != 0 {
                let pc = ready.trailingZeroBitCount
                ready &= ready - 1
                let accepts: Bool
                switch instructions[pc] {
                case .character(let expected): accepts = code == expected
                case .anyCharacter: accepts = !isLineTerminator(code)
                case .characterClass(let set): accepts = set.contains(code)
                default: accepts = false
                }
                if accepts { next |= 1 << UInt64(pc + 1) }
            }
            states = next
            position += 1
            if states == 0 && anchored { return false }
        }
    }

    /// Adds every state reachable through epsilon moves at `position`.
    private func closure<Element: FixedWidthInteger & UnsignedInteger>(
        _ states: UInt64, _ input: UnsafeBufferPointer<Element>, _ position: Int
    ) -> UInt64 {
        var reached = states
        var frontier = states
        while frontier != 0 {
            var added: UInt64 = 0
            var pending = frontier
            while pending != 0 {
                let pc = pending.trailingZeroBitCount
                pending &= pending - 1
                added |= epsilon[pc]
                if assertions & (1 << UInt64(pc)) != 0, holds(instructions[pc], input, position) {
                    added |= 1 << UInt64(pc + 1)
                }
            }
            frontier = added & ~reached
            reached |= added
        }
        return reached
    }

    private func holds<Element: FixedWidthInteger & UnsignedInteger>(
        _ assertion: RegexInstruction, _ input: UnsafeBufferPointer<Element>, _ position: Int
    ) -> Bool {
        switch assertion {
        case .lineStart: return position == 0
        case .lineEnd: return position == input.count
        case .wordBoundary(let negated):
            let before = position > 0 && CharacterClass.wordCharacters.contains(UInt32(input[position - 1]))
            let after = position < input.count && CharacterClass.wordCharacters.contains(UInt32(input[position]))
            return (before != after) != negated
        default: return false
        }
    }
}
