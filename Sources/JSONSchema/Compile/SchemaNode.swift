/// One compiled schema (an object or boolean schema at one location): the checks its keywords make, in
/// the order they run. Built once by ``SchemaCompiler``; read-only while validating.
final class SchemaNode: @unchecked Sendable {
    /// JSON pointer of this schema inside its document, e.g. "/properties/time".
    let location: String
    /// The compiled keywords, in evaluation order; `unevaluated*` come last.
    let keywords: [Keyword]
    /// The same keywords without reference counting, for the validation loop (`type` excluded); a
    /// buffer of its own, so walking it costs no reference counting either.
    let keywordRefs: UnsafeMutableBufferPointer<KeywordRef>
    /// The `type` keyword's types, checked inline before the other keywords.
    let types: JSONTypes?
    /// Whether this node has `unevaluatedProperties`/`unevaluatedItems`, so its subschemas report what
    /// they evaluated.
    let collectsAnnotations: Bool
    /// Whether this node is the `false` schema (rejects everything).
    let rejectsEverything: Bool
    /// The schema resource this node belongs to (its nearest `$id` or document root), for `$dynamicRef`'s
    /// dynamic scope; set once every node is compiled.
    var resource: SchemaResource?

    init(location: String, keywords: [Keyword], collectsAnnotations: Bool) {
        self.location = location
        self.keywords = keywords
        types = keywords.lazy.compactMap { $0 as? TypeKeyword }.first?.types
        let references = keywords.filter { !($0 is TypeKeyword) }.map(KeywordRef.init)
        keywordRefs = .allocate(capacity: references.count)
        _ = keywordRefs.initialize(from: references)
        self.collectsAnnotations = collectsAnnotations
        rejectsEverything = keywords.count == 1 && keywords[0] is NeverKeyword
    }

    deinit { keywordRefs.deallocate() }

    /// Whether `instance` is valid against this schema: ``Schema/isValid(_:)``'s hot path, without
    /// messages, instance locations, annotations or dynamic scope (only for programs without
    /// `$dynamicRef`). `depth` counts the subschemas entered so far, bounded as in ``Evaluator``.
    func accepts(_ instance: UnsafePointer<JSONValue>, depth: Int) -> Bool {
        guard depth < SchemaLimits.maximumEvaluationDepth, !collectsAnnotations else {
            return acceptsCollecting(instance.pointee, depth: depth)
        }
        if let types, !types.matches(instance.pointee) { return false }
        for reference in keywordRefs where !reference.accepts(instance, self, depth: depth + 1) { return false }
        return true
    }

    /// ``accepts(_:depth:)`` for a schema with `unevaluated*` (or past the depth bound): the evaluator,
    /// silently.
    @inline(never)
    private func acceptsCollecting(_ instance: JSONValue, depth: Int) -> Bool {
        var evaluator = Evaluator(maxErrors: 1, silent: true, tracksScope: false)
        evaluator.depth = depth
        var annotations = Annotations()
        return evaluator.evaluate(self, instance, &annotations, track: false)
    }

    /// The keyword location for an error raised by `keyword` of this node.
    func keywordLocation(_ keyword: String) -> String { keyword.isEmpty ? location : location + "/" + keyword }
}

/// A reference to a compiled node that does not retain it. Every node is owned by the
/// ``CompiledProgram`` that validation runs inside, so these never outlive their target; avoiding
/// reference counting on the validation path is what makes it fast.
struct NodeRef: @unchecked Sendable {
    private let reference: Unmanaged<SchemaNode>
    init(_ node: SchemaNode) { reference = Unmanaged.passUnretained(node) }

    /// The node (retained by the caller as usual).
    var node: SchemaNode { reference.takeUnretainedValue() }

    /// Runs `body` with the node, without retaining it for the call.
    func with<Result>(_ body: (SchemaNode) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }

    /// ``SchemaNode/accepts(_:depth:)`` without retaining the node.
    @inline(__always)
    func accepts(_ instance: UnsafePointer<JSONValue>, depth: Int) -> Bool {
        reference._withUnsafeGuaranteedRef { $0.accepts(instance, depth: depth) }
    }
}

/// A keyword reference that does not retain it (its node owns it).
struct KeywordRef: @unchecked Sendable {
    let keyword: Unmanaged<Keyword>
    init(_ keyword: Keyword) { self.keyword = Unmanaged.passUnretained(keyword) }

    /// Runs the keyword without retaining it for the call.
    func evaluate(
        _ instance: JSONValue, _ node: SchemaNode, _ evaluator: inout Evaluator, _ annotations: inout Annotations,
        track: Bool
    ) -> Bool {
        keyword._withUnsafeGuaranteedRef { $0.evaluate(instance, node, &evaluator, &annotations, track: track) }
    }

    /// ``Keyword/accepts(_:_:depth:)`` without retaining the keyword.
    @inline(__always)
    func accepts(_ instance: UnsafePointer<JSONValue>, _ node: SchemaNode, depth: Int) -> Bool {
        keyword._withUnsafeGuaranteedRef { $0.accepts(instance, node, depth: depth) }
    }
}

/// A `$ref` or `$dynamicRef` target, filled in once every schema is compiled (references may form cycles).
final class SchemaLink: @unchecked Sendable {
    /// The absolute URI the reference resolved to (for messages).
    let uri: String
    /// The target; set before validation starts, owned by the compiled program.
    unowned(unsafe) var target: SchemaNode?

    init(uri: String) { self.uri = uri }
}

/// A schema resource (a document root or a subschema with `$id`) as seen by `$dynamicRef`: the
/// `$dynamicAnchor`s declared directly in it.
final class SchemaResource: @unchecked Sendable {
    /// The resource's absolute base URI.
    let uri: String
    /// Compiled schemas by dynamic anchor name.
    var dynamicAnchors: [String: NodeRef] = [:]

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

    /// "expected a string or null", for messages (built once per combination).
    var expectation: String { Self.expectations[Int(rawValue & 0x7F)] }

    private static let expectations: [String] = (0..<128).map { bits in
        let names = JSONTypes(rawValue: UInt8(bits)).names
        return "expected \(ValueText.article(names)) \(names)"
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
