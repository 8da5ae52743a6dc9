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
}
