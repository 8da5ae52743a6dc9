/// A keyword that is one test of the instance with one message when it fails: `type`, `enum`, `const`,
/// `multipleOf`, the number limits, the count limits and asserted `format`. Subclasses give the test
/// (``holds(_:)``, which their ``Keyword/accepts(_:_:depth:)`` calls directly to keep the hot path at one
/// dynamic call) and the message (``failure(_:)``, built only when errors are reported).
class AssertionKeyword: Keyword, @unchecked Sendable {
    /// The schema keyword, e.g. `maxItems`, for error locations.
    let name: String
    init(name: String) { self.name = name }

    final override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if holds(instance) { return true }
        evaluator.report(node, name, failure(instance))
        return false
    }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool { true }

    /// What is wrong with `instance`, which does not pass: "expected …, got …".
    func failure(_ instance: JSONValue) -> String { "" }
}
