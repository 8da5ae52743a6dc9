/// `type`, `enum`, `const` and the numeric keywords of the validation vocabulary.
final class TypeKeyword: Keyword, @unchecked Sendable {
    let types: JSONTypes
    init(_ types: JSONTypes) { self.types = types }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if types.matches(instance) { return true }
        Self.report(types, instance, node, &evaluator)
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool { types.matches(instance) }

    /// Reports that `instance` is not of `types`.
    static func report(_ types: JSONTypes, _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator) {
        evaluator.report(node, "type", "\(types.expectation), got \(ValueText.describe(instance))")
    }
}

/// `enum`: a linear scan for the usual handful of values (of packed bytes when all are short strings), a
/// hash set for long lists.
final class EnumKeyword: Keyword, @unchecked Sendable {
    let values: [JSONValue]
    private let hashed: Set<JSONValue>?
    /// The values packed, when all are strings of at most ``PackedName/capacity`` bytes and the list is short.
    private let strings: [PackedName]?
    /// "expected "a", "b" or "c"", built once for messages.
    private let expectation: String
    init(_ values: [JSONValue]) {
        self.values = values
        expectation = "expected " + ValueText.list(values)
        hashed = values.count > 16 ? Set(values) : nil
        let strings = values.compactMap { $0.stringValue.flatMap(PackedName.init) }
        self.strings = hashed == nil && strings.count == values.count ? strings : nil
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        if let strings, case .string(let text) = instance {
            // Longer than every value (nil from a non-contiguous string falls through to the scan).
            if text.utf8.count > PackedName.capacity { return false }
            if let packed = PackedName(text) { return strings.contains(packed) }
        } else if strings != nil {
            return false
        }
        if let hashed { return hashed.contains(instance) }
        for value in values where value == instance { return true }
        return false
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if holds(instance) { return true }
        evaluator.report(node, "enum", "\(expectation), got \(ValueText.describe(instance))")
        return false
    }
}

final class ConstKeyword: Keyword, @unchecked Sendable {
    let value: JSONValue
    init(_ value: JSONValue) { self.value = value }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if value == instance { return true }
        evaluator.report(node, "const", "expected \(ValueText.describe(value)), got \(ValueText.describe(instance))")
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool { value == instance }
}

final class MultipleOfKeyword: Keyword, @unchecked Sendable {
    let divisor: JSONValue
    init(_ divisor: JSONValue) { self.divisor = divisor }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard !holds(instance) else { return true }
        evaluator.report(node, "multipleOf", "expected a multiple of \(divisor), got \(ValueText.describe(instance))")
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        !Numbers.isNumber(instance) || Numbers.isMultiple(instance, of: divisor)
    }
}

/// `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum`.
final class NumberLimitKeyword: Keyword, @unchecked Sendable {
    enum Kind: String {
        case maximum, exclusiveMaximum, minimum, exclusiveMinimum
    }

    let kind: Kind
    let limit: JSONValue
    /// "expected a number at most 1440", built once for messages.
    private let expectation: String
    init(_ kind: Kind, _ limit: JSONValue) {
        self.kind = kind
        self.limit = limit
        let words: String
        switch kind {
        case .maximum: words = "at most"
        case .exclusiveMaximum: words = "less than"
        case .minimum: words = "at least"
        case .exclusiveMinimum: words = "greater than"
        }
        expectation = "expected a number \(words) \(limit.serialized())"
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if holds(instance) { return true }
        evaluator.report(node, kind.rawValue, "\(expectation), got \(ValueText.describe(instance))")
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        guard let order = Numbers.compare(instance, limit) else { return true }
        switch kind {
        case .maximum: return order <= 0
        case .exclusiveMaximum: return order < 0
        case .minimum: return order >= 0
        case .exclusiveMinimum: return order > 0
        }
    }
}
