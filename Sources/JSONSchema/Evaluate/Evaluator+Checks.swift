/// The checks of the validation vocabulary and the object/array applicators.
extension Evaluator {
    mutating func apply(
        _ check: Check, of node: SchemaNode, to instance: JSONValue, _ local: inout Annotations, track: Bool
    ) -> Bool {
        switch check {
        case .never:
            report(node, "", "no value is allowed here, got \(ValueText.describe(instance))")
            return false
        case .type(let types):
            if types.matches(instance) { return true }
            report(node, "type", "expected \(Self.article(types.names)) \(types.names), got \(ValueText.describe(instance))")
            return false
        case .enumeration(let values):
            for value in values where value == instance { return true }
            report(node, "enum", "expected \(ValueText.list(values)), got \(ValueText.describe(instance))")
            return false
        case .constant(let value):
            if value == instance { return true }
            report(node, "const", "expected \(ValueText.describe(value)), got \(ValueText.describe(instance))")
            return false
        case .multipleOf(let divisor):
            guard Numbers.isNumber(instance), !Numbers.isMultiple(instance, of: divisor) else { return true }
            report(node, "multipleOf", "expected a multiple of \(divisor), got \(ValueText.describe(instance))")
            return false
        case .maximum(let limit):
            return compare(node, "maximum", instance, limit, "at most", accept: { $0 <= 0 })
        case .exclusiveMaximum(let limit):
            return compare(node, "exclusiveMaximum", instance, limit, "less than", accept: { $0 < 0 })
        case .minimum(let limit):
            return compare(node, "minimum", instance, limit, "at least", accept: { $0 >= 0 })
        case .exclusiveMinimum(let limit):
            return compare(node, "exclusiveMinimum", instance, limit, "greater than", accept: { $0 > 0 })
        case .maxLength(let limit):
            guard case .string(let text) = instance, text.utf8.count > limit else { return true }
            let length = text.unicodeScalars.count
            if length <= limit { return true }
            report(node, "maxLength", "expected at most \(limit) characters, got \(length): \(ValueText.describe(instance))")
            return false
        case .minLength(let limit):
            guard case .string(let text) = instance else { return true }
            let length = text.unicodeScalars.count
            if length >= limit { return true }
            report(node, "minLength", "expected at least \(limit) characters, got \(length): \(ValueText.describe(instance))")
            return false
        case .pattern(let regex):
            guard case .string(let text) = instance else { return true }
            switch regex.search(text) {
            case .match: return true
            case .noMatch:
                report(node, "pattern", "expected a string matching /\(regex.source)/, got \(ValueText.describe(instance))")
            case .budgetExceeded:
                report(node, "pattern", "matching /\(regex.source)/ took too long on \(ValueText.describe(instance)); use a simpler value")
            }
            return false
        case .format(let checker):
            if checker.accepts(instance) { return true }
            report(node, "format", "expected \(checker.expectation), got \(ValueText.describe(instance))")
            return false
        case .maxItems(let limit):
            guard case .array(let elements) = instance, elements.count > limit else { return true }
            report(node, "maxItems", "expected at most \(limit) items, got \(elements.count)")
            return false
        case .minItems(let limit):
            guard case .array(let elements) = instance, elements.count < limit else { return true }
            report(node, "minItems", "expected at least \(limit) items, got \(elements.count)")
            return false
        case .uniqueItems:
            guard case .array(let elements) = instance, elements.count > 1 else { return true }
            var seen: [JSONValue: Int] = [:]
            for (position, element) in elements.enumerated() {
                if let first = seen.updateValue(position, forKey: element) {
                    report(node, "uniqueItems", "items \(first) and \(position) are equal (\(ValueText.describe(element))); items must be unique")
                    return false
                }
            }
            return true
        case .maxProperties(let limit):
            guard case .object(let object) = instance, object.count > limit else { return true }
            report(node, "maxProperties", "expected at most \(limit) properties, got \(object.count)")
            return false
        case .minProperties(let limit):
            guard case .object(let object) = instance, object.count < limit else { return true }
            report(node, "minProperties", "expected at least \(limit) properties, got \(object.count)")
            return false
        case .required(let names):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for name in names where object[name] == nil {
                valid = false
                report(node, "required", "missing required property \(ValueText.describe(.string(name)))")
                if stopping { return false }
            }
            return valid
        case .dependentRequired(let pairs):
            guard case .object(let object) = instance else { return true }
            var valid = true
            for (name, needed) in pairs where object[name] != nil {
                for other in needed where object[other] == nil {
                    valid = false
                    report(
                        node, "dependentRequired",
                        "property \(ValueText.describe(.string(name))) requires property \(ValueText.describe(.string(other)))")
                    if stopping { return false }
                }
            }
            return valid
        default:
            return applyApplicator(check, of: node, to: instance, &local, track: track)
        }
    }

    /// Compares a number with a limit; non-numbers pass.
    private mutating func compare(
        _ node: SchemaNode, _ keyword: String, _ instance: JSONValue, _ limit: JSONValue, _ words: String,
        accept: (Int) -> Bool
    ) -> Bool {
        guard let order = Numbers.compare(instance, limit), !accept(order) else { return true }
        report(node, keyword, "expected a number \(words) \(limit), got \(ValueText.describe(instance))")
        return false
    }

    /// "a" or "an" for a type name.
    static func article(_ word: String) -> String {
        guard let first = word.first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }
}
