/// The applicator and unevaluated vocabularies: keywords that apply subschemas.
extension Evaluator {
    mutating func applyApplicator(
        _ check: Check, of node: SchemaNode, to instance: JSONValue, _ local: inout Annotations, track: Bool
    ) -> Bool {
        switch check {
        case .properties(let members):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (name, child) in members {
                guard let value = object[name] else { continue }
                if evaluate(child, value, key: name) {
                    if track { local.properties.insert(name) }
                } else {
                    valid = false
                    if stopping { return false }
                }
            }
            return valid
        case .patternProperties(let members):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (key, value) in object {
                for (regex, child) in members where regex.matches(key) {
                    if evaluate(child, value, key: key) {
                        if track { local.properties.insert(key) }
                    } else {
                        valid = false
                        if stopping { return false }
                    }
                }
            }
            return valid
        case .additionalProperties(let child, let known, let patterns):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (key, value) in object where !known.contains(key) && !patterns.contains(where: { $0.matches(key) }) {
                if !evaluateExtra(child, node, "additionalProperties", value, key: key, allowed: known) {
                    valid = false
                    if stopping { return false }
                }
            }
            if valid && track { local.allProperties = true }
            return valid
        case .propertyNames(let child):
            guard case .object(let object) = instance else { return true }
            for key in object.keys {
                var ignored = Annotations()
                if !probe(child, .string(key), &ignored, track: false) {
                    let reason = reporting ? explain(child, .string(key), limit: 1).first?.message ?? "" : ""
                    report(node, "propertyNames", "invalid property name \(ValueText.describe(.string(key))): \(reason)")
                    return false
                }
            }
            return true
        case .dependentSchemas(let members):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (name, child) in members where object[name] != nil {
                if !evaluate(child, instance, &local, track: track) {
                    valid = false
                    if stopping { return false }
                }
            }
            return valid
        case .prefixItems(let children):
            guard case .array(let elements) = instance else { return true }
            var valid = true
            let count = min(children.count, elements.count)
            for position in 0..<count where !evaluate(children[position], elements[position], index: position) {
                valid = false
                if stopping { return false }
            }
            if valid && track { local.prefixItems = max(local.prefixItems, count) }
            return valid
        case .items(let child, let start):
            guard case .array(let elements) = instance, elements.count > start else { return true }
            var valid = true
            for position in start..<elements.count {
                let passed: Bool
                if child.checks.count == 1, case .never = child.checks[0] {
                    report(node, "items", "unexpected item at index \(position): at most \(start) items are allowed")
                    passed = false
                } else {
                    passed = evaluate(child, elements[position], index: position)
                }
                if !passed {
                    valid = false
                    if stopping { return false }
                }
            }
            if valid && track { local.allItems = true }
            return valid
        case .contains(let child, let minimum, let maximum):
            guard case .array(let elements) = instance else { return true }
            var matches = 0
            for (position, element) in elements.enumerated() {
                var ignored = Annotations()
                if probe(child, element, &ignored, track: false) {
                    matches += 1
                    if track { local.items.insert(position) }
                    if !track, matches >= minimum, maximum == nil { return true }
                }
            }
            if matches < minimum {
                report(node, "contains", "expected at least \(minimum) item(s) matching the contains schema, found \(matches)")
                return false
            }
            if let maximum, matches > maximum {
                report(node, "maxContains", "expected at most \(maximum) item(s) matching the contains schema, found \(matches)")
                return false
            }
            return true
        default:
            return applyCombinator(check, of: node, to: instance, &local, track: track)
        }
    }

    /// Applies an `additionalProperties`/`unevaluatedProperties` subschema to one extra member, saying
    /// "unexpected property" when the subschema is `false`.
    mutating func evaluateExtra(
        _ child: SchemaNode, _ node: SchemaNode, _ keyword: String, _ value: JSONValue, key: String, allowed: Set<String>
    ) -> Bool {
        if child.checks.count == 1, case .never = child.checks[0] {
            if reporting {
                path.append(.key(key))
                let hint = allowed.isEmpty ? "" : " (allowed: \(ValueText.names(allowed.sorted())))"
                report(node, keyword, "unexpected property \(ValueText.describe(.string(key)))\(hint); remove it")
                path.removeLast()
            }
            return false
        }
        return evaluate(child, value, key: key)
    }
}
