/// `maxLength`, `minLength`, `maxItems`, `minItems`, `maxProperties`, `minProperties`: one bound on how
/// many characters, items or members an instance has. Instances of other types pass.
final class CountLimitKeyword: Keyword, @unchecked Sendable {
    /// What is counted, and in which kind of instance.
    enum Measure {
        /// Unicode code points of a string (`maxLength`, `minLength`).
        case characters
        /// Elements of an array (`maxItems`, `minItems`).
        case items
        /// Members of an object (`maxProperties`, `minProperties`).
        case properties
    }

    let measure: Measure
    let limit: Int
    let isMaximum: Bool
    /// The schema keyword, e.g. `maxItems`, for error locations.
    private let name: String

    init(_ measure: Measure, limit: Int, isMaximum: Bool) {
        self.measure = measure
        self.limit = limit
        self.isMaximum = isMaximum
        let suffix: String
        switch measure {
        case .characters: suffix = "Length"
        case .items: suffix = "Items"
        case .properties: suffix = "Properties"
        }
        name = (isMaximum ? "max" : "min") + suffix
    }

    override func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        if holds(instance) { return true }
        let bound = "expected \(isMaximum ? "at most" : "at least") \(limit)"
        switch instance {
        case .string(let text):
            let length = text.unicodeScalars.count
            evaluator.report(node, name, "\(bound) characters, got \(length): \(ValueText.describe(instance))")
        case .array(let elements):
            evaluator.report(node, name, "\(bound) items, got \(elements.count)")
        case .object(let object):
            evaluator.report(node, name, "\(bound) properties, got \(object.count)")
        default:
            return true
        }
        return false
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    /// Whether `instance` passes this check.
    func holds(_ instance: JSONValue) -> Bool {
        switch (measure, instance) {
        case (.characters, .string(let text)):
            let bytes = text.utf8.count
            // A code point is at least one UTF-8 byte and at most four, so the byte count often decides.
            if isMaximum {
                return bytes <= limit || text.unicodeScalars.count <= limit
            }
            if bytes / 4 >= limit { return true }
            if bytes < limit { return false }
            return text.unicodeScalars.count >= limit
        case (.items, .array(let elements)):
            return isMaximum ? elements.count <= limit : elements.count >= limit
        case (.properties, .object(let object)):
            return isMaximum ? object.count <= limit : object.count >= limit
        default:
            return true
        }
    }
}
