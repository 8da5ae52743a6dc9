/// `pattern` and asserted `format` (`maxLength` and `minLength` are a ``CountLimitKeyword``).
final class PatternKeyword: Keyword, @unchecked Sendable {
    let regex: ECMARegex
    /// "expected a string matching /…/", built once for messages.
    private let expectation: String
    init(_ regex: ECMARegex) {
        self.regex = regex
        expectation = "expected a string matching /\(regex.source)/"
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        guard case .string(let text) = instance else { return true }
        switch regex.search(text) {
        case .match: return true
        case .noMatch:
            evaluator.report(node, "pattern", "\(expectation), got \(ValueText.describe(instance))")
        case .budgetExceeded:
            evaluator.report(
                node, "pattern",
                "matching /\(regex.source)/ took too long on \(ValueText.describe(instance)); use a simpler value")
        }
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        guard case .string(let text) = instance else { return true }
        return regex.search(text) == .match
    }
}

final class FormatKeyword: AssertionKeyword, @unchecked Sendable {
    let checker: FormatChecker
    init(_ checker: FormatChecker) {
        self.checker = checker
        super.init(name: "format")
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func holds(_ instance: JSONValue) -> Bool { checker.accepts(instance) }

    override func failure(_ instance: JSONValue) -> String {
        "expected \(checker.expectation), got \(ValueText.describe(instance))"
    }
}
