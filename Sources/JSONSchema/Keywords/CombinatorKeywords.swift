/// In-place applicators: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `$ref`, `$dynamicRef`.
final class AllOfKeyword: Keyword, @unchecked Sendable {
    let schemas: [NodeRef]
    init(_ schemas: [SchemaNode]) { self.schemas = schemas.map(NodeRef.init) }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        var valid = true
        for schema in schemas where !evaluator.evaluate(schema, instance, &annotations, track: track) {
            valid = false
            if evaluator.stopping { return false }
        }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        for schema in schemas where !schema.accepts(instance, depth: depth) { return false }
        return true
    }
}

final class AnyOfKeyword: Keyword, @unchecked Sendable {
    let schemas: [NodeRef]
    init(_ schemas: [SchemaNode]) { self.schemas = schemas.map(NodeRef.init) }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        var matched = false
        for schema in schemas where evaluator.probe(schema, instance, &annotations, track: track) {
            matched = true
            if !track { break }
        }
        if !matched { evaluator.reportAlternatives(node, "anyOf", schemas, instance) }
        return matched
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        for schema in schemas where schema.accepts(instance, depth: depth) { return true }
        return false
    }
}

final class OneOfKeyword: Keyword, @unchecked Sendable {
    let schemas: [NodeRef]
    init(_ schemas: [SchemaNode]) { self.schemas = schemas.map(NodeRef.init) }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        var matched: [Int] = []
        var candidate = Annotations()
        for (position, schema) in schemas.enumerated() {
            var branch = Annotations()
            if evaluator.probe(schema, instance, &branch, track: track) {
                matched.append(position)
                candidate = branch
                if matched.count > 1 { break }
            }
        }
        if matched.count == 1 {
            if track { annotations.merge(candidate) }
            return true
        }
        if matched.isEmpty {
            evaluator.reportAlternatives(node, "oneOf", schemas, instance)
        } else {
            evaluator.report(
                node, "oneOf",
                "\(ValueText.describe(instance)) matches alternatives \(matched[0]) and \(matched[1]) of oneOf; it must match exactly one")
        }
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        var matched = false
        for schema in schemas where schema.accepts(instance, depth: depth) {
            if matched { return false }
            matched = true
        }
        return matched
    }
}

final class NotKeyword: Keyword, @unchecked Sendable {
    let schema: NodeRef
    init(_ schema: SchemaNode) { self.schema = NodeRef(schema) }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        var ignored = Annotations()
        if !evaluator.probe(schema, instance, &ignored, track: false) { return true }
        evaluator.report(node, "not", "\(ValueText.describe(instance)) must not match the schema in not")
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        !schema.accepts(instance, depth: depth)
    }
}

/// `if` with its `then`/`else`; kept without them too, since `if` still yields annotations.
final class ConditionalKeyword: Keyword, @unchecked Sendable {
    let condition: NodeRef
    let then: NodeRef?
    let otherwise: NodeRef?
    init(if condition: SchemaNode, then: SchemaNode?, else otherwise: SchemaNode?) {
        self.condition = NodeRef(condition)
        self.then = then.map(NodeRef.init)
        self.otherwise = otherwise.map(NodeRef.init)
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if then == nil && otherwise == nil && !track { return true }
        var branch = Annotations()
        if evaluator.probe(condition, instance, &branch, track: track) {
            if track { annotations.merge(branch) }
            guard let then else { return true }
            return evaluator.evaluate(then, instance, &annotations, track: track)
        }
        guard let otherwise else { return true }
        return evaluator.evaluate(otherwise, instance, &annotations, track: track)
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        if then == nil && otherwise == nil { return true }
        if condition.accepts(instance, depth: depth) { return then?.accepts(instance, depth: depth) ?? true }
        return otherwise?.accepts(instance, depth: depth) ?? true
    }
}

/// `$ref`, and `$dynamicRef`: when `anchor` is set (the static target declares that `$dynamicAnchor`),
/// the outermost resource in the dynamic scope with the anchor wins.
final class ReferenceKeyword: Keyword, @unchecked Sendable {
    let link: SchemaLink
    let anchor: String?
    init(_ link: SchemaLink, dynamicAnchor anchor: String?) {
        self.link = link
        self.anchor = anchor
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard var target = link.target else { return true }
        if let anchor {
            for resource in evaluator.scope {
                if let dynamic = resource.dynamicAnchors[anchor] {
                    target = dynamic.node
                    break
                }
            }
        }
        return evaluator.evaluate(target, instance, &annotations, track: track)
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        // The hot path runs only without a dynamic scope, where `$dynamicRef` is its static target.
        guard let target = link.target else { return true }
        return target.accepts(instance, depth: depth)
    }
}
