@testable import JSONSchema

/// The ECMA regex compiler and both matchers (bitset/DFA and backtracking with its step budget): pattern
/// before the first NUL, subject after it. The two engines must agree unless the budget ran out.
func fuzzRegex(_ input: [UInt8]) {
    let (patternBytes, subjectBytes) = splitAtNUL(input)
    let pattern = String(decoding: patternBytes, as: UTF8.self)
    let subject = String(decoding: subjectBytes, as: UTF8.self)
    guard let regex = try? ECMARegex(pattern) else { return }
    let fast = regex.search(subject)
    let backtracking = regex.search(subject, backtrackingOnly: true)
    if fast != .budgetExceeded, backtracking != .budgetExceeded, fast != backtracking {
        fatalError("engines disagree on /\(pattern)/ with \(subject.debugDescription): \(fast) vs \(backtracking)")
    }
}
