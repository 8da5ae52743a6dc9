/// Turns a schema document into a tree of ``SchemaNode``s: resolves every `$ref` once, compiles every
/// regex once, and drops keywords of vocabularies the dialect turns off.
struct SchemaCompiler {
    typealias Location = ResourceRegistry.Location

    /// A reference waiting for its target to be compiled.
    private struct PendingLink {
        var link: SchemaLink
        var target: Location
        var fragment: String
        var dynamic: Bool
        var source: String
    }

    var registry: ResourceRegistry
    let options: SchemaOptions
    private(set) var nodes: [Location: SchemaNode] = [:]
    private var pending: [PendingLink] = []
    /// Every reference made.
    private(set) var links: [SchemaLink] = []
    private var resources: [String: SchemaResource] = [:]
    private var vocabularies: [Int: Vocabularies] = [:]
    private var compiledAnchorDocuments: Set<Int> = []
    private var depth = 0
    /// Whether any `$dynamicRef` was compiled (validation then tracks the dynamic scope).
    private(set) var usesDynamicScope = false

    init(options: SchemaOptions) {
        self.options = options
        registry = ResourceRegistry(available: options.documents)
    }

    /// Compiles `schema` as the root document and everything it references.
    mutating func compileRoot(_ schema: JSONValue) throws(SchemaError) -> SchemaNode {
        var uri = ""
        if case .string(let id)? = schema["$id"] { uri = URIReference.resolve(id, against: "").uri }
        let document = registry.add(schema, uri: uri)
        let root = try node(at: Location(document: document, pointer: ""))
        try finish()
        return root
    }

    /// Every compiled node; the compiled program owns them (keywords and links refer to them unretained).
    var allNodes: [SchemaNode] { Array(nodes.values) }

    /// The node for the schema at `location`, compiling it on first use.
    mutating func node(at location: Location) throws(SchemaError) -> SchemaNode {
        if let existing = nodes[location] { return existing }
        guard let value = registry.value(at: location) else {
            throw SchemaError(pointer: location.pointer, message: "no schema at this location")
        }
        guard nodes.count < SchemaLimits.maximumNodes else {
            throw SchemaError(
                pointer: location.pointer,
                message: "the schema has more than \(SchemaLimits.maximumNodes) subschemas; split it up")
        }
        guard depth < SchemaLimits.maximumSchemaDepth else {
            throw SchemaError(
                pointer: location.pointer,
                message: "subschemas nest deeper than \(SchemaLimits.maximumSchemaDepth) levels; use $defs and $ref")
        }
        depth += 1
        defer { depth -= 1 }
        let node: SchemaNode
        switch value {
        case .bool(let accepts):
            node = SchemaNode(location: location.pointer, keywords: accepts ? [] : [NeverKeyword()], collectsAnnotations: false)
        case .object(let object):
            let (keywords, collects) = try compileKeywords(object, at: location)
            node = SchemaNode(location: location.pointer, keywords: keywords, collectsAnnotations: collects)
        default:
            throw SchemaError(
                pointer: location.pointer,
                message: "a schema must be an object or a boolean, got \(ValueText.describe(value))")
        }
        nodes[location] = node
        return node
    }

    /// The vocabularies in effect for a document, from its `$schema`.
    mutating func vocabularies(of document: Int) -> Vocabularies {
        if let known = vocabularies[document] { return known }
        var result = Vocabularies.standard
        if case .string(let metaURI)? = registry.documents[document]["$schema"] {
            let (uri, _) = URIReference.resolve(metaURI, against: "")
            if let legacy = Vocabularies.legacy(uri) {
                result = legacy
            } else if uri != MetaSchemas.draft202012, let location = registry.resource(uri) {
                result = Vocabularies(metaSchema: registry.value(at: location))
            }
        }
        vocabularies[document] = result
        return result
    }

    /// Queues a reference from the schema at `location` for resolution once compiling is done.
    mutating func reference(
        _ reference: String, from location: Location, keyword: String, dynamic: Bool
    ) throws(SchemaError) -> (link: SchemaLink, target: Location) {
        let base = registry.baseURI(at: location)
        let (uri, fragment) = URIReference.resolve(reference, against: base)
        let source = location.pointer + "/" + keyword
        guard let target = registry.location(uri: uri, fragment: fragment) else {
            let name = fragment.isEmpty ? uri : uri + "#" + fragment
            throw SchemaError(
                pointer: source,
                message: "cannot resolve \(keyword) \"\(reference)\" (\(name.isEmpty ? "#" : name)); "
                    + "define it in $defs or pass the document that has it")
        }
        let link = SchemaLink(uri: uri + "#" + fragment)
        links.append(link)
        pending.append(PendingLink(link: link, target: target, fragment: fragment, dynamic: dynamic, source: source))
        if dynamic { usesDynamicScope = true }
        return (link, target)
    }

    /// The resource object for a resource URI (shared by all its nodes).
    mutating func resource(_ uri: String) -> SchemaResource {
        if let existing = resources[uri] { return existing }
        let created = SchemaResource(uri: uri)
        resources[uri] = created
        return created
    }

    /// Compiles every queued reference target and every dynamic anchor of every touched document.
    private mutating func finish() throws(SchemaError) {
        while true {
            if let next = pending.popLast() {
                next.link.target = try node(at: next.target)
                continue
            }
            let touched = Set(nodes.keys.map(\.document)).subtracting(compiledAnchorDocuments)
            if touched.isEmpty { break }
            for document in touched {
                compiledAnchorDocuments.insert(document)
                for (resourceURI, anchors) in registry.dynamicAnchors {
                    for (name, location) in anchors where location.document == document {
                        let compiled = try node(at: location)
                        resource(resourceURI).dynamicAnchors[name] = NodeRef(compiled)
                    }
                }
            }
        }
        for (location, node) in nodes {
            node.resource = resource(registry.resourceURI(at: location))
        }
    }
}
