/// Exact-as-possible arithmetic on JSON numbers (integers stay integers).
enum Numbers {
    /// Whether the value is a number.
    static func isNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .int, .double: return true
        default: return false
        }
    }

    /// The order of two numbers (-1, 0, 1), or nil when `lhs` is not a number.
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.int(let a), .double(let b)):
            if let exact = Int64(exactly: b) { return a < exact ? -1 : (a == exact ? 0 : 1) }
            let value = Double(a)
            return value < b ? -1 : (value == b ? 0 : 1)
        case (.double(let a), .int(let b)):
            if let exact = Int64(exactly: a) { return exact < b ? -1 : (exact == b ? 0 : 1) }
            let value = Double(b)
            return a < value ? -1 : (a == value ? 0 : 1)
        case (.double(let a), .double(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        default: return nil
        }
    }

    /// Whether `value` is an integer multiple of `divisor` (> 0).
    static func isMultiple(_ value: JSONValue, of divisor: JSONValue) -> Bool {
        if case .int(let a) = value, case .int(let b) = divisor { return a % b == 0 }
        guard let a = value.doubleValue, let b = divisor.doubleValue else { return true }
        let quotient = a / b
        if quotient.isFinite { return quotient.rounded(.towardZero) == quotient }
        // The quotient overflowed (a huge value, a divisor below 1): the remainder is exact in binary.
        return a.truncatingRemainder(dividingBy: b) == 0
    }
}
