/// `allOf`, `anyOf`, `oneOf`, `not`, `if`, `$ref`, `$dynamicRef` and the unevaluated vocabulary.
extension Evaluator {
    mutating func applyCombinator(
        _ check: Check, of node: SchemaNode, to instance: JSONValue, _ local: inout Annotations, track: Bool
    ) -> Bool {
        switch check {
        case .allOf(let children):
            var valid = true
            for child in children where !evaluate(child, instance, &local, track: track) {
                valid = false
                if stopping { return false }
            }
            return valid
        case .anyOf(let children):
            var matched = false
            for child in children where probe(child, instance, &local, track: track) {
                matched = true
                if !track { break }
            }
            if !matched { reportAlternatives(node, "anyOf", children, instance) }
            return matched
        case .oneOf(let children):
            var matched: [Int] = []
            var candidate = Annotations()
            for (position, child) in children.enumerated() {
                var branch = Annotations()
                if probe(child, instance, &branch, track: track) {
                    matched.append(position)
                    candidate = branch
                    if matched.count > 1 { break }
                }
            }
            if matched.count == 1 {
                if track { local.merge(candidate) }
                return true
            }
            if matched.isEmpty {
                reportAlternatives(node, "oneOf", children, instance)
            } else {
                report(
                    node, "oneOf",
                    "\(ValueText.describe(instance)) matches alternatives \(matched[0]) and \(matched[1]) of oneOf; it must match exactly one")
            }
            return false
        case .not(let child):
            var ignored = Annotations()
            if !probe(child, instance, &ignored, track: false) { return true }
            report(node, "not", "\(ValueText.describe(instance)) must not match the schema in not")
            return false
        case .conditional(let condition, let then, let otherwise):
            if then == nil && otherwise == nil && !track { return true }
            var branch = Annotations()
            if probe(condition, instance, &branch, track: track) {
                if track { local.merge(branch) }
                guard let then else { return true }
                return evaluate(then, instance, &local, track: track)
            }
            guard let otherwise else { return true }
            return evaluate(otherwise, instance, &local, track: track)
        case .ref(let link):
            guard let target = link.target else { return true }
            return evaluate(target, instance, &local, track: track)
        case .dynamicRef(let link, let anchor):
            guard var target = link.target else { return true }
            if let anchor {
                for resource in scope {
                    if let dynamic = resource.dynamicAnchors[anchor] {
                        target = dynamic
                        break
                    }
                }
            }
            return evaluate(target, instance, &local, track: track)
        case .unevaluatedProperties(let child):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (key, value) in object where !local.evaluated(property: key) {
                if !evaluateExtra(child, node, "unevaluatedProperties", value, key: key, allowed: []) {
                    valid = false
                    if stopping { return false }
                }
            }
            if valid { local.allProperties = true }
            return valid
        case .unevaluatedItems(let child):
            guard case .array(let elements) = instance else { return true }
            var valid = true
            for position in elements.indices where !local.evaluated(item: position) {
                if child.checks.count == 1, case .never = child.checks[0] {
                    report(node, "unevaluatedItems", "unexpected item at index \(position); remove it")
                    valid = false
                } else if !evaluate(child, elements[position], index: position) {
                    valid = false
                }
                if !valid && stopping { return false }
            }
            if valid { local.allItems = true }
            return valid
        default:
            return true
        }
    }

    /// Explains why no alternative of `anyOf`/`oneOf` matched: the errors of the one alternative whose
    /// type fits the instance, or one line listing what each alternative expected.
    mutating func reportAlternatives(_ node: SchemaNode, _ keyword: String, _ children: [SchemaNode], _ instance: JSONValue) {
        guard reporting else { return }
        let here = instanceLocation
        var fitting: [[ValidationError]] = []
        var expectations: [String] = []
        for child in children.prefix(8) {
            let errors = explain(child, instance, limit: 5)
            let typeMismatch = errors.contains { $0.instanceLocation == here && $0.keywordLocation.hasSuffix("/type") }
            if typeMismatch {
                if let first = errors.first { expectations.append(first.message.components(separatedByFirst: ", got ")) }
            } else if !errors.isEmpty {
                fitting.append(errors)
            }
        }
        if fitting.count == 1 {
            for error in fitting[0] where errors.count < maxErrors { errors.append(error) }
            return
        }
        let summary = fitting.isEmpty && !expectations.isEmpty
            ? expectations.joined(separator: " or ")
            : "a value matching one of the \(children.count) alternatives in \(keyword)"
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
