/// `maxLength`, `minLength`, `maxItems`, `minItems`, `maxProperties`, `minProperties`: one bound on how
/// many characters, items or members an instance has. Instances of other types pass.
final class CountLimitKeyword: AssertionKeyword, @unchecked Sendable {
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
    /// The allowed counts, `minimum...maximum`: `0...limit` or `limit...Int.max`.
    private let minimum: Int
    private let maximum: Int

    init(_ measure: Measure, limit: Int, isMaximum: Bool) {
        self.measure = measure
        self.limit = limit
        self.isMaximum = isMaximum
        minimum = isMaximum ? 0 : limit
        maximum = isMaximum ? limit : Int.max
        let suffix: String
        switch measure {
        case .characters: suffix = "Length"
        case .items: suffix = "Items"
        case .properties: suffix = "Properties"
        }
        super.init(name: (isMaximum ? "max" : "min") + suffix)
    }

    override func failure(_ instance: JSONValue) -> String {
        let bound = "expected \(isMaximum ? "at most" : "at least") \(limit)"
        switch instance {
        case .string(let text): return "\(bound) characters, got \(text.unicodeScalars.count): \(ValueText.describe(instance))"
        case .array(let elements): return "\(bound) items, got \(elements.count)"
        case .object(let object): return "\(bound) properties, got \(object.count)"
        default: return "\(bound), got \(ValueText.describe(instance))"
        }
    }

    override func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool { holds(instance.pointee) }

    override func holds(_ instance: JSONValue) -> Bool {
        let count: Int
        switch instance {
        case .string(let text):
            guard measure == .characters else { return true }
            let bytes = text.utf8.count
            // A code point is one to four UTF-8 bytes, so the byte count often decides without counting.
            if bytes <= maximum && bytes / 4 >= minimum { return true }
            if bytes < minimum { return false }
            count = text.unicodeScalars.count
        case .array(let elements):
            guard measure == .items else { return true }
            count = elements.count
        case .object(let object):
            guard measure == .properties else { return true }
            count = object.count
        default:
            return true
        }
        return count >= minimum && count <= maximum
    }
}
