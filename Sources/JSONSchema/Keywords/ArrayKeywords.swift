/// Array keywords: `uniqueItems`, `contains`, `prefixItems`, `items`, `unevaluatedItems` (`maxItems` and
/// `minItems` are a ``CountLimitKeyword``).
final class UniqueItemsKeyword: Keyword, @unchecked Sendable {
    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .array(let elements) = instance, let (first, second) = Self.duplicate(in: elements) else { return true }
        evaluator.report(
            node, "uniqueItems",
            "items \(first) and \(second) are equal (\(ValueText.describe(elements[second]))); items must be unique")
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        guard case .array(let elements) = instance else { return true }
        return Self.duplicate(in: elements) == nil
    }

    /// The positions of the first pair of equal elements.
    static func duplicate(in elements: [JSONValue]) -> (Int, Int)? {
        guard elements.count > 1 else { return nil }
        var duplicate: (Int, Int)?
        if elements.count <= 16 {
            search: for second in 1..<elements.count {
                for first in 0..<second where elements[first] == elements[second] {
                    duplicate = (first, second)
                    break search
                }
            }
        } else {
            var seen: [JSONValue: Int] = [:]
            for (position, element) in elements.enumerated() {
                if let first = seen.updateValue(position, forKey: element) {
                    duplicate = (first, position)
                    break
                }
            }
        }
        return duplicate
    }
}

/// `contains` with its `minContains`/`maxContains` (nil maximum = unbounded).
final class ContainsKeyword: Keyword, @unchecked Sendable {
    let schema: NodeRef
    let minimum: Int
    let maximum: Int?
    init(_ schema: SchemaNode, minimum: Int, maximum: Int?) {
        self.schema = NodeRef(schema)
        self.minimum = minimum
        self.maximum = maximum
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var matches = 0
        for position in elements.indices {
            var ignored = Annotations()
            if evaluator.probe(schema, elements[position], &ignored, track: false) {
                matches += 1
                if track { annotations.insert(item: position) }
                if !track, matches >= minimum, maximum == nil { return true }
            }
        }
        if matches < minimum {
            evaluator.report(node, "contains", "expected at least \(minimum) item(s) matching the contains schema, found \(matches)")
            return false
        }
        if let maximum, matches > maximum {
            evaluator.report(node, "maxContains", "expected at most \(maximum) item(s) matching the contains schema, found \(matches)")
            return false
        }
        return true
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        guard case .array(let elements) = instance.pointee else { return true }
        var matches = 0
        return elements.withUnsafeBufferPointer { elements in
            for position in elements.indices where schema.accepts(elements.baseAddress! + position, depth: depth) {
                matches += 1
                if matches >= minimum, maximum == nil { return true }
            }
            return matches >= minimum && matches <= maximum ?? Int.max
        }
    }
}

final class PrefixItemsKeyword: Keyword, @unchecked Sendable {
    let schemas: [NodeRef]
    init(_ schemas: [SchemaNode]) { self.schemas = schemas.map(NodeRef.init) }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .array(let elements) = instance else { return true }
        var valid = true
        let count = min(schemas.count, elements.count)
        for position in 0..<count where !evaluator.evaluate(schemas[position], elements[position], index: position) {
            valid = false
            if evaluator.stopping { return false }
        }
        if valid && track { annotations.prefixItems = max(annotations.prefixItems, count) }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        guard case .array(let elements) = instance.pointee else { return true }
        return elements.withUnsafeBufferPointer { elements in
            for position in 0..<min(schemas.count, elements.count)
            where !schemas[position].accepts(elements.baseAddress! + position, depth: depth) {
                return false
            }
            return true
        }
    }
}

/// `items` (applies from `start`, the number of `prefixItems`) and `unevaluatedItems` (applies to items
/// no other keyword evaluated).
final class ItemsKeyword: Keyword, @unchecked Sendable {
    let schema: NodeRef
    let start: Int
    let unevaluatedOnly: Bool
    init(_ schema: SchemaNode, start: Int, unevaluatedOnly: Bool) {
        self.schema = NodeRef(schema)
        self.start = start
        self.unevaluatedOnly = unevaluatedOnly
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .array(let elements) = instance, elements.count > start else { return true }
        var valid = true
        let keyword = unevaluatedOnly ? "unevaluatedItems" : "items"
        for position in start..<elements.count {
            if unevaluatedOnly && annotations.evaluated(item: position) { continue }
            let passed: Bool
            if schema.node.rejectsEverything {
                let limit = unevaluatedOnly ? "" : ": at most \(start) items are allowed"
                evaluator.report(node, keyword, "unexpected item at index \(position)\(limit); remove it")
                passed = false
            } else {
                passed = evaluator.evaluate(schema, elements[position], index: position)
            }
            if !passed {
                valid = false
                if evaluator.stopping { return false }
            }
        }
        if valid && (track || unevaluatedOnly) { annotations.allItems = true }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        guard !unevaluatedOnly else { return super.accepts(instance, node, depth: depth) }
        guard case .array(let elements) = instance.pointee, elements.count > start else { return true }
        return schema.with { schema in
            if schema.rejectsEverything { return false }
            return elements.withUnsafeBufferPointer { elements in
                for position in start..<elements.count where !schema.accepts(elements.baseAddress! + position, depth: depth) {
                    return false
                }
                return true
            }
        }
    }
}
