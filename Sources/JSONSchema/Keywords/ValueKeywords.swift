/// `type`, `enum`, `const` and the numeric keywords of the validation vocabulary.
final class TypeKeyword: AssertionKeyword, @unchecked Sendable {
    let types: JSONTypes
    init(_ types: JSONTypes) {
        self.types = types
        super.init(name: "type")
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func holds(_ instance: JSONValue) -> Bool { types.matches(instance) }

    override func failure(_ instance: JSONValue) -> String { Self.failure(types, instance) }

    /// Reports that `instance` is not of `types` (for nodes that check their types without this keyword).
    static func report(_ types: JSONTypes, _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator) {
        evaluator.report(node, "type", failure(types, instance))
    }

    private static func failure(_ types: JSONTypes, _ instance: JSONValue) -> String {
        "\(types.expectation), got \(ValueText.describe(instance))"
    }
}

/// `enum`: a linear scan for the usual handful of values (of packed bytes when all are short strings), a
/// hash set for long lists.
final class EnumKeyword: AssertionKeyword, @unchecked Sendable {
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
        super.init(name: "enum")
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func holds(_ instance: JSONValue) -> Bool {
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

    override func failure(_ instance: JSONValue) -> String { "\(expectation), got \(ValueText.describe(instance))" }
}

final class ConstKeyword: AssertionKeyword, @unchecked Sendable {
    let value: JSONValue
    init(_ value: JSONValue) {
        self.value = value
        super.init(name: "const")
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func holds(_ instance: JSONValue) -> Bool { value == instance }

    override func failure(_ instance: JSONValue) -> String {
        "expected \(ValueText.describe(value)), got \(ValueText.describe(instance))"
    }
}

final class MultipleOfKeyword: AssertionKeyword, @unchecked Sendable {
    let divisor: JSONValue
    init(_ divisor: JSONValue) {
        self.divisor = divisor
        super.init(name: "multipleOf")
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func failure(_ instance: JSONValue) -> String {
        "expected a multiple of \(divisor), got \(ValueText.describe(instance))"
    }

    override func holds(_ instance: JSONValue) -> Bool {
        !Numbers.isNumber(instance) || Numbers.isMultiple(instance, of: divisor)
    }
}

/// `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum`.
final class NumberLimitKeyword: AssertionKeyword, @unchecked Sendable {
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
        super.init(name: kind.rawValue)
    }

    override func failure(_ instance: JSONValue) -> String { "\(expectation), got \(ValueText.describe(instance))" }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func holds(_ instance: JSONValue) -> Bool {
        guard let order = Numbers.compare(instance, limit) else { return true }
        switch kind {
        case .maximum: return order <= 0
        case .exclusiveMaximum: return order < 0
        case .minimum: return order >= 0
        case .exclusiveMinimum: return order > 0
        }
    }
}
