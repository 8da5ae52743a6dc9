/// One compiled schema (an object or boolean schema at one location): the checks its keywords make, in
/// the order they run. Built once by ``SchemaCompiler``; read-only while validating.
final class SchemaNode: @unchecked Sendable {
    /// JSON pointer of this schema inside its document, e.g. "/properties/time".
    let location: String
    /// The checks, keyword by keyword; `unevaluated*` come last.
    var checks: [Check] = []
    /// The schema resource this node belongs to (its nearest `$id` or document root), for `$dynamicRef`'s
    /// dynamic scope.
    var resource: SchemaResource?
    /// The `$dynamicAnchor` this node declares, if any.
    var dynamicAnchor: String?
    /// Whether this node has `unevaluatedProperties`/`unevaluatedItems`, so its subschemas report what
    /// they evaluated.
    var collectsAnnotations = false

    init(location: String) { self.location = location }

    /// The keyword location for an error raised by `keyword` of this node.
    func keywordLocation(_ keyword: String) -> String { location + "/" + keyword }
}

/// A `$ref` or `$dynamicRef` target, filled in once every schema is compiled (references may form cycles).
final class SchemaLink: @unchecked Sendable {
    /// The absolute URI the reference resolved to (for messages).
    let uri: String
    /// The target; set before validation starts.
    var target: SchemaNode?

    init(uri: String) { self.uri = uri }
}

/// A schema resource (a document root or a subschema with `$id`) as seen by `$dynamicRef`: the
/// `$dynamicAnchor`s declared directly in it.
final class SchemaResource: @unchecked Sendable {
    /// The resource's absolute base URI.
    let uri: String
    /// Compiled schemas by dynamic anchor name.
    var dynamicAnchors: [String: SchemaNode] = [:]

    init(uri: String) { self.uri = uri }
}

/// The JSON types named by the `type` keyword, as a bit set.
struct JSONTypes: OptionSet, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }
    static let null = JSONTypes(rawValue: 1)
    static let boolean = JSONTypes(rawValue: 2)
    static let integer = JSONTypes(rawValue: 4)
    static let number = JSONTypes(rawValue: 8)
    static let string = JSONTypes(rawValue: 16)
    static let array = JSONTypes(rawValue: 32)
    static let object = JSONTypes(rawValue: 64)

    /// The type for a `type` keyword word, or nil when it names none.
    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "integer": self = .integer
        case "number": self = .number
        case "string": self = .string
        case "array": self = .array
        case "object": self = .object
        default: return nil
        }
    }

    /// Whether `value` is of one of these types (`integer` also accepts 1.0, `number` accepts integers).
    func matches(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return contains(.null)
        case .bool: return contains(.boolean)
        case .int: return !isDisjoint(with: [.integer, .number])
        case .double(let number):
            if contains(.number) { return true }
            return contains(.integer) && number.rounded(.towardZero) == number
        case .string: return contains(.string)
        case .array: return contains(.array)
        case .object: return contains(.object)
        }
    }

    /// The names, "string or null".
    var names: String {
        let all: [(JSONTypes, String)] = [
            (.null, "null"), (.boolean, "boolean"), (.integer, "integer"), (.number, "number"),
            (.string, "string"), (.array, "array"), (.object, "object"),
        ]
        return all.filter { contains($0.0) }.map(\.1).joined(separator: " or ")
    }
}
