/// Explaining failed `anyOf`/`oneOf` alternatives in one actionable report.
extension Evaluator {
    /// Explains why no alternative of `anyOf`/`oneOf` matched: the errors of the one alternative whose
    /// type fits the instance, or one line listing what each alternative expected.
    mutating func reportAlternatives(_ node: SchemaNode, _ keyword: String, _ children: [NodeRef], _ instance: JSONValue) {
        guard reporting else { return }
        let here = instanceLocation
        var fitting: [[ValidationError]] = []
        var expectations: [String] = []
        for child in children.prefix(8) {
            let errors = explain(child.node, instance, limit: 5)
            let mismatch = errors.first { $0.instanceLocation == here && $0.keywordLocation.hasSuffix("/type") }
            if let mismatch {
                expectations.append(mismatch.message.components(separatedByFirst: ", got "))
            } else if !errors.isEmpty {
                fitting.append(errors)
            }
        }
        if fitting.count == 1 {
            for error in fitting[0] where errors.count < maxErrors { errors.append(error) }
            return
        }
        let summary: String
        if fitting.isEmpty && !expectations.isEmpty {
            // "expected a string or an integer"
            let prefix = "expected "
            let items = expectations.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
            summary = prefix + items.joined(separator: " or ")
        } else {
            summary = "expected a value matching one of the \(children.count) alternatives in \(keyword)"
        }
        report(node, keyword, "\(summary), got \(ValueText.describe(instance))")
    }
}

extension String {
    /// The text before the first `separator`, or the whole string.
    func components(separatedByFirst separator: String) -> String {
        guard let range = firstRange(of: separator) else { return self }
        return String(self[..<range.lowerBound])
    }
}
