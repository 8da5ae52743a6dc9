import SkillJSON

/// A step's `if`: `REF`, `!REF`, or `OPERAND OP OPERAND` with `==`, `!=`, `<`, `<=`, `>`, `>=`, where an
/// operand is a reference (`inputs.x`, `steps.ID.output.path`) or a literal (a number, `'text'`, `"text"`,
/// `true`, `false`, `null`); `${{ }}` around the whole is allowed. A lone value holds unless it is null,
/// false, 0, "" or empty.
public struct WorkflowCondition: Sendable {
    enum Operand: Sendable {
        case reference(WorkflowReference)
        case literal(JSONValue)
    }

    let negated: Bool
    let left: Operand
    let comparison: (op: String, right: Operand)?

    /// Reads `text`.
    public init(_ text: String) throws(WorkflowSyntaxError) {
        var body = text.trimmingCharacters(in: " \t")
        if body.hasPrefix("${{"), body.hasSuffix("}}") {
            body = String(body.dropFirst(3).dropLast(2)).trimmingCharacters(in: " \t")
        }
        guard !body.isEmpty else { throw WorkflowSyntaxError("the condition is empty; write e.g. steps.ID.output.count > 0") }
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if let range = body.range(of: op) {
                negated = false
                left = try Self.operand(String(body[..<range.lowerBound]))
                comparison = (op, try Self.operand(String(body[range.upperBound...])))
                return
            }
        }
        negated = body.hasPrefix("!")
        left = try Self.operand(negated ? String(body.dropFirst()) : body)
        comparison = nil
    }

    static func operand(_ raw: String) throws(WorkflowSyntaxError) -> Operand {
        let text = raw.trimmingCharacters(in: " \t")
        switch text {
        case "true": return .literal(true)
        case "false": return .literal(false)
        case "null": return .literal(.null)
        case "": throw WorkflowSyntaxError("a comparison is missing an operand; write a reference or a literal on both sides")
        default: break
        }
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            return .literal(.string(String(text.dropFirst().dropLast())))
        }
        if let integer = Int64(text) { return .literal(.int(integer)) }
        if let number = Double(text), number.isFinite { return .literal(.double(number)) }
        return .reference(try WorkflowReference(parsing: text))
    }

    /// The references it reads.
    public var references: [WorkflowReference] {
        var found: [WorkflowReference] = []
        if case .reference(let reference) = left { found.append(reference) }
        if let comparison, case .reference(let reference) = comparison.right { found.append(reference) }
        return found
    }

    /// Whether it holds, with references looked up by `lookup` (nil: null).
    public func holds(_ lookup: (WorkflowReference) -> JSONValue?) -> Bool {
        func value(_ operand: Operand) -> JSONValue {
            switch operand {
            case .literal(let literal): return literal
            case .reference(let reference): return lookup(reference) ?? .null
            }
        }
        let lhs = value(left)
        guard let comparison else { return Self.truthy(lhs) != negated }
        let rhs = value(comparison.right)
        switch comparison.op {
        case "==": return Self.equal(lhs, rhs)
        case "!=": return !Self.equal(lhs, rhs)
        default:
            let ordered: Bool?
            if let a = lhs.doubleValue, let b = rhs.doubleValue {
                ordered = Self.compare(a, b, comparison.op)
            } else if let a = lhs.stringValue, let b = rhs.stringValue {
                ordered = Self.compare(a, b, comparison.op)
            } else {
                ordered = nil
            }
            return ordered ?? false
        }
    }

    static func compare<T: Comparable>(_ a: T, _ b: T, _ op: String) -> Bool {
        switch op {
        case "<": a < b
        case "<=": a <= b
        case ">": a > b
        default: a >= b
        }
    }

    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// Null, false, 0, "" and empty arrays and objects are false; everything else is true.
    static func truthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): flag
        case .int(let number): number != 0
        case .double(let number): number != 0
        case .string(let text): !text.isEmpty
        case .array(let items): !items.isEmpty
        case .object(let object): !object.isEmpty
        }
    }
}
