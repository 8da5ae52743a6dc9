/// One step of a compiled regex, run by ``RegexMachine``.
enum RegexInstruction {
    case character(UInt32)
    case anyCharacter
    case characterClass(CharacterClass)
    /// Try `first`; on failure backtrack to `second`.
    case split(Int, Int)
    case jump(Int)
    /// Store the position in capture slot n (2×group for the start, 2×group+1 for the end).
    case save(Int)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    /// Run subprogram n at the current position.
    case lookaround(Int, behind: Bool, negated: Bool)
    case backreference(Int)
    /// Remember the position in loop register n.
    case mark(Int)
    /// Fail when the position equals loop register n (an empty loop iteration).
    case progress(Int)
    case match
}

/// A regex compiled to instructions for a backtracking machine.
final class RegexProgram: @unchecked Sendable {
    /// The most instructions a pattern may compile to (counted repetition is unrolled).
    static let maximumSize = 20_000

    var instructions: [RegexInstruction] = []
    var subprograms: [RegexProgram] = []
    var captureSlots: Int
    var registerCount = 0

    init(captureSlots: Int) { self.captureSlots = captureSlots }

    /// Compiles `syntax` (with `groups` capturing groups; captures are recorded only when a backreference
    /// needs them).
    static func compile(_ syntax: RegexSyntax, groups: Int, recordsCaptures: Bool) throws(RegexSyntaxError) -> RegexProgram {
        let program = RegexProgram(captureSlots: recordsCaptures ? 2 * (groups + 1) : 0)
        let builder = Builder(program: program)
        try builder.emit(syntax)
        program.instructions.append(.match)
        return program
    }

    private struct Builder {
        let program: RegexProgram

        private func append(_ instruction: RegexInstruction) throws(RegexSyntaxError) -> Int {
            guard program.instructions.count < RegexProgram.maximumSize else {
                throw RegexSyntaxError(reason: "the pattern is too large (more than \(RegexProgram.maximumSize) steps once repetitions are expanded)")
            }
            program.instructions.append(instruction)
            return program.instructions.count - 1
        }

        private var next: Int { program.instructions.count }

        func emit(_ syntax: RegexSyntax) throws(RegexSyntaxError) {
            switch syntax {
            case .empty: break
            case .character(let code): _ = try append(.character(code))
            case .anyCharacter: _ = try append(.anyCharacter)
            case .characterClass(let set): _ = try append(.characterClass(set))
            case .sequence(let items): for item in items { try emit(item) }
            case .alternation(let items):
                var exits: [Int] = []
                for (position, item) in items.enumerated() {
                    if position < items.count - 1 {
                        let split = try append(.split(0, 0))
                        try emit(item)
                        exits.append(try append(.jump(0)))
                        program.instructions[split] = .split(split + 1, next)
                    } else {
                        try emit(item)
                    }
                }
                for exit in exits { program.instructions[exit] = .jump(next) }
            case .group(let inner, let capture):
                let recorded = program.captureSlots > 0 ? capture : nil
                if let recorded { _ = try append(.save(2 * recorded)) }
                try emit(inner)
                if let recorded { _ = try append(.save(2 * recorded + 1)) }
            case .quantified(let inner, let minimum, let maximum, let greedy):
                for _ in 0..<minimum { try emit(inner) }
                if let maximum {
                    var splits: [Int] = []
                    for _ in minimum..<max(minimum, maximum) {
                        splits.append(try append(.split(0, 0)))
                        try emit(inner)
                    }
                    for split in splits {
                        program.instructions[split] = greedy ? .split(split + 1, next) : .split(next, split + 1)
                    }
                } else {
                    let guarded = inner.canMatchEmpty
                    let register = program.registerCount
                    if guarded { program.registerCount += 1 }
                    let loop = try append(.split(0, 0))
                    if guarded { _ = try append(.mark(register)) }
                    try emit(inner)
                    if guarded { _ = try append(.progress(register)) }
                    _ = try append(.jump(loop))
                    program.instructions[loop] = greedy ? .split(loop + 1, next) : .split(next, loop + 1)
                }
            case .lineStart: _ = try append(.lineStart)
            case .lineEnd: _ = try append(.lineEnd)
            case .wordBoundary(let negated): _ = try append(.wordBoundary(negated: negated))
            case .lookaround(let inner, let behind, let negated):
                let sub = RegexProgram(captureSlots: program.captureSlots)
                try Builder(program: sub).emit(inner)
                sub.instructions.append(.match)
                program.subprograms.append(sub)
                _ = try append(.lookaround(program.subprograms.count - 1, behind: behind, negated: negated))
            case .backreference(let group): _ = try append(.backreference(group))
            }
        }
    }
}
