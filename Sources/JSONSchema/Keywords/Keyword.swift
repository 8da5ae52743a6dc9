/// One compiled keyword of one schema: a small object holding everything its check needs (resolved
/// `$ref` targets, compiled regexes, name sets), so validating never looks anything up in the schema.
/// Subclasses are final; ``SchemaNode`` runs its keywords in order.
class Keyword: @unchecked Sendable {
    /// Checks `instance`; reports failures through `evaluator` and, when `track` is set, records what it
    /// evaluated in `annotations` (for `unevaluated*`).
    func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        true
    }

    /// Whether `instance` passes, without messages or annotations: ``Schema/isValid(_:)``'s hot path.
    /// `depth` is the evaluation depth of `node`'s subschemas. Keywords on the hot path override it with
    /// a direct check; the rest run ``evaluate(_:_:_:_:track:)`` silently.
    ///
    /// The instance is passed by pointer into the caller's (immutable) document, so walking an instance
    /// copies no values and costs no reference counting per member or element.
    func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        var evaluator = Evaluator(maxErrors: 1, silent: true, tracksScope: false)
        evaluator.depth = depth
        var annotations = Annotations()
        return evaluate(instance.pointee, node, &evaluator, &annotations, track: false)
    }
}

/// The `false` schema: rejects every instance.
final class NeverKeyword: Keyword, @unchecked Sendable {
    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        evaluator.report(node, "", "no value is allowed here, got \(ValueText.describe(instance))")
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { false }
}
