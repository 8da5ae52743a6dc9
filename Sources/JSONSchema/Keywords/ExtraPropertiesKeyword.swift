/// `additionalProperties` (applies to members not named in `properties` nor matched by
/// `patternProperties`) and `unevaluatedProperties` (applies to members no other keyword evaluated).
final class ExtraPropertiesKeyword: Keyword, @unchecked Sendable {
    let schema: NodeRef
    let known: NameSet
    let patterns: [ECMARegex]
    let unevaluatedOnly: Bool
    /// " (allowed: "a", "b")" for messages, built once.
    private let allowedHint: String

    init(_ schema: SchemaNode, known: NameSet, patterns: [ECMARegex], unevaluatedOnly: Bool) {
        self.schema = NodeRef(schema)
        self.known = known
        self.patterns = patterns
        self.unevaluatedOnly = unevaluatedOnly
        allowedHint = known.isEmpty ? "" : " (allowed: \(ValueText.names(known.names.sorted())))"
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .object(let object) = instance else { return true }
        var valid = true
        for position in 0..<object.count {
            let (key, value) = object.member(at: position)
            if unevaluatedOnly {
                if annotations.evaluated(property: key) { continue }
            } else if known.contains(key) || patterns.contains(where: { $0.matches(key) }) {
                continue
            }
            if !evaluateExtra(value, key: key, node, &evaluator) {
                valid = false
                if evaluator.stopping { return false }
            }
        }
        if valid && (track || unevaluatedOnly) { annotations.allProperties = true }
        return valid
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        guard !unevaluatedOnly else { return super.accepts(instance, node, depth: depth) }
        return JSONObject.withMembers(at: instance) { keys, values in
            for member in keys.indices {
                let key = keys[member]
                if known.contains(key) || patterns.contains(where: { $0.matches(key) }) { continue }
                if !acceptsExtra(values.baseAddress! + member, depth: depth) { return false }
            }
            return true
        } ?? true
    }

    /// Whether the subschema accepts one extra member (``Schema/isValid(_:)``'s hot path).
    @inline(__always)
    func acceptsExtra(_ value: UnsafePointer<JSONValue>, depth: Int) -> Bool {
        schema.with { $0.rejectsEverything ? false : $0.accepts(value, depth: depth) }
    }

    /// Applies the subschema to one extra member, saying "unexpected property" when it is `false`.
    func evaluateExtra(_ value: JSONValue, key: String, _ node: SchemaNode, _ evaluator: inout Evaluator) -> Bool {
        guard schema.node.rejectsEverything else { return evaluator.evaluate(schema, value, key: key) }
        if evaluator.reporting {
            evaluator.path.append(.key(key))
            evaluator.report(
                node, unevaluatedOnly ? "unevaluatedProperties" : "additionalProperties",
                "unexpected property \(ValueText.describe(.string(key)))\(allowedHint); remove it")
            evaluator.path.removeLast()
        }
        return false
    }
}
