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

    /// Reports that `instance` is not of `types`.
    static func report(_ types: JSONTypes, _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator) {
        evaluator.report(node, "type", "expected \(ValueText.article(types.names)) \(types.names), got \(ValueText.describe(instance))")
    }
}

/// `enum`: a linear scan for the usual handful of values, a hash set for long lists.
final class EnumKeyword: Keyword, @unchecked Sendable {
    let values: [JSONValue]
    private let hashed: Set<JSONValue>?
    init(_ values: [JSONValue]) {
        self.values = values
        hashed = values.count > 16 ? Set(values) : nil
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if let hashed {
            if hashed.contains(instance) { return true }
        } else {
            for value in values where value == instance { return true }
        }
        evaluator.report(node, "enum", "expected \(ValueText.list(values)), got \(ValueText.describe(instance))")
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
}

final class MultipleOfKeyword: Keyword, @unchecked Sendable {
    let divisor: JSONValue
    init(_ divisor: JSONValue) { self.divisor = divisor }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard Numbers.isNumber(instance), !Numbers.isMultiple(instance, of: divisor) else { return true }
        evaluator.report(node, "multipleOf", "expected a multiple of \(divisor), got \(ValueText.describe(instance))")
        return false
    }
}

/// `maximum`, `exclusiveMaximum`, `minimum`, `exclusiveMinimum`.
final class NumberLimitKeyword: Keyword, @unchecked Sendable {
    enum Kind: String {
        case maximum, exclusiveMaximum, minimum, exclusiveMinimum
    }

    let kind: Kind
    let limit: JSONValue
    init(_ kind: Kind, _ limit: JSONValue) {
        self.kind = kind
        self.limit = limit
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard let order = Numbers.compare(instance, limit) else { return true }
        let words: String
        switch kind {
        case .maximum:
            if order <= 0 { return true }
            words = "at most"
        case .exclusiveMaximum:
            if order < 0 { return true }
            words = "less than"
        case .minimum:
            if order >= 0 { return true }
            words = "at least"
        case .exclusiveMinimum:
            if order > 0 { return true }
            words = "greater than"
        }
        evaluator.report(node, kind.rawValue, "expected a number \(words) \(limit), got \(ValueText.describe(instance))")
        return false
    }
}
