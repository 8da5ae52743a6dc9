/// A backtracking matcher for ``RegexProgram`` with a step budget: every instruction executed costs one
/// step, and a search that runs out reports ``Outcome/budgetExceeded`` instead of running on.
struct RegexMachine<Element: FixedWidthInteger & UnsignedInteger> {
    enum Outcome: Equatable {
        case matched(end: Int)
        case failed
        case budgetExceeded
    }

    private enum Backtrack {
        case resume(pc: Int, position: Int)
        case restoreSlot(Int, Int)
        case restoreRegister(Int, Int)
    }

    let input: UnsafeBufferPointer<Element>
    var budget: Int
    var slots: [Int]
    /// The backtrack stack, shared by every run of this search (nested lookaround runs push above).
    private var stack: [Backtrack] = []

    init(input: UnsafeBufferPointer<Element>, budget: Int, slots: Int) {
        self.input = input
        self.budget = budget
        self.slots = slots > 0 ? Array(repeating: -1, count: slots) : []
        stack.reserveCapacity(32)  // one allocation per search instead of one per growth step
    }

    /// Runs `program` from `start`; when `endAt` is set the match must end exactly there (lookbehind).
    mutating func run(_ program: RegexProgram, from start: Int, endAt: Int? = nil) -> Outcome {
        let instructions = program.instructions
        var registers = program.registerCount > 0 ? Array(repeating: -1, count: program.registerCount) : []
        let base = stack.count
        defer { stack.removeSubrange(base...) }
        var pc = 0
        var position = start
        let count = input.count
        while true {
            budget -= 1
            if budget < 0 { return .budgetExceeded }
            var ok = true
            switch instructions[pc] {
            case .character(let code):
                if position < count && UInt32(input[position]) == code {
                    position += 1
                    pc += 1
                } else {
                    ok = false
                }
            case .anyCharacter:
                if position < count, !isLineTerminator(UInt32(input[position])) {
                    position += 1
                    pc += 1
                } else {
                    ok = false
                }
            case .characterClass(let set):
                if position < count && set.contains(UInt32(input[position])) {
                    position += 1
                    pc += 1
                } else {
                    ok = false
                }
            case .split(let first, let second):
                stack.append(.resume(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append(.restoreSlot(slot, slots[slot]))
                slots[slot] = position
                pc += 1
            case .lineStart:
                if position == 0 { pc += 1 } else { ok = false }
            case .lineEnd:
                if position == count { pc += 1 } else { ok = false }
            case .wordBoundary(let negated):
                let before = position > 0 && CharacterClass.wordCharacters.contains(UInt32(input[position - 1]))
                let after = position < count && CharacterClass.wordCharacters.contains(UInt32(input[position]))
                if (before != after) != negated { pc += 1 } else { ok = false }
            case .lookaround(let index, let behind, let negated):
                let sub = program.subprograms[index]
                var found = false
                if behind {
                    var origin = position
                    while origin >= 0 && !found {
                        switch run(sub, from: origin, endAt: position) {
                        case .matched: found = true
                        case .failed: origin -= 1
                        case .budgetExceeded: return .budgetExceeded
                        }
                    }
                } else {
                    switch run(sub, from: position) {
                    case .matched: found = true
                    case .failed: break
                    case .budgetExceeded: return .budgetExceeded
                    }
                }
                if found != negated { pc += 1 } else { ok = false }
            case .backreference(let group):
                let from = slots[2 * group]
                let to = slots[2 * group + 1]
                if from < 0 || to < from {
                    pc += 1
                } else {
                    let length = to - from
                    if position + length <= count && (0..<length).allSatisfy({ input[from + $0] == input[position + $0] }) {
                        position += length
                        pc += 1
                    } else {
                        ok = false
                    }
                }
            case .mark(let register):
                stack.append(.restoreRegister(register, registers[register]))
                registers[register] = position
                pc += 1
            case .progress(let register):
                if registers[register] == position { ok = false } else { pc += 1 }
            case .match:
                if let endAt, position != endAt { ok = false } else { return .matched(end: position) }
            }
            if ok { continue }
            var resumed = false
            while stack.count > base, let entry = stack.popLast() {
                switch entry {
                case .resume(let target, let saved):
                    pc = target
                    position = saved
                    resumed = true
                case .restoreSlot(let slot, let value): slots[slot] = value
                case .restoreRegister(let register, let value): registers[register] = value
                }
                if resumed { break }
            }
            if !resumed { return .failed }
        }
    }

}

/// ECMA-262 LineTerminator: what `.` does not match.
func isLineTerminator(_ code: UInt32) -> Bool {
    code == 0x0A || code == 0x0D || code == 0x2028 || code == 0x2029
}
