/// Every schema document the compiler may reach, indexed by the URIs that name places in it: document
/// URIs, `$id`s, `$anchor`s and `$dynamicAnchor`s. Only keywords that hold schemas are walked, so an `$id`
/// inside `const`, `enum` or an unknown keyword names nothing.
struct ResourceRegistry {
    /// A place in a document.
    struct Location: Hashable {
        var document: Int
        var pointer: String
    }

    /// Documents by number.
    private(set) var documents: [JSONValue] = []
    /// Resource roots by absolute URI (no fragment).
    private(set) var resources: [String: Location] = [:]
    /// Plain-name anchors by "uri#name".
    private(set) var anchors: [String: Location] = [:]
    /// Dynamic anchors by resource URI, then name.
    private(set) var dynamicAnchors: [String: [String: Location]] = [:]
    /// The base URI in effect at each schema location that was walked.
    private var baseURIs: [Location: String] = [:]
    /// The resource URI each walked location belongs to.
    private var owningResource: [Location: String] = [:]
    /// Documents given but not yet indexed, by URI.
    private var available: [String: JSONValue]

    /// Keywords whose value is one schema.
    static let singleSchemaKeywords: Set<String> = [
        "additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems",
    ]
    /// Keywords whose value maps names to schemas.
    static let schemaMapKeywords: Set<String> = [
        "$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies",
    ]
    /// Keywords whose value is an array of schemas.
    static let schemaArrayKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]

    /// A registry that can load `available` documents (keyed by URI) when a reference names them.
    init(available: [String: JSONValue]) {
        var normalized: [String: JSONValue] = [:]
        for (uri, document) in available { normalized[URIReference.resolve(uri, against: "").uri] = document }
        self.available = normalized
    }

    /// Adds a document retrieved from `uri` and indexes it; returns its number.
    @discardableResult
    mutating func add(_ document: JSONValue, uri: String) -> Int {
        let number = documents.count
        documents.append(document)
        available[uri] = nil
        let root = Location(document: number, pointer: "")
        if !uri.isEmpty || resources[uri] == nil { resources[uri] = root }
        index(document, at: root, base: uri, resource: uri)
        return number
    }

    /// The place `uri` (without fragment) names, loading a given document on first use.
    mutating func resource(_ uri: String) -> Location? {
        if let location = resources[uri] { return location }
        if let document = available[uri] ?? MetaSchemas.document(uri) {
            add(document, uri: uri)
            return resources[uri]
        }
        return nil
    }

    /// The place a fragment names inside the resource `uri`: a JSON pointer or an anchor name.
    mutating func location(uri: String, fragment: String) -> Location? {
        if fragment.isEmpty || fragment.hasPrefix("/") {
            guard let root = resource(uri) else { return nil }
            let pointer = URIReference.percentDecoded(fragment)
            guard documents[root.document].value(atPointer: root.pointer + pointer) != nil else { return nil }
            return Location(document: root.document, pointer: root.pointer + pointer)
        }
        guard resource(uri) != nil else { return nil }
        return anchors[uri + "#" + URIReference.percentDecoded(fragment)]
    }

    /// The value at a location.
    func value(at location: Location) -> JSONValue? {
        documents[location.document].value(atPointer: location.pointer)
    }

    /// The base URI in effect at `location` (that of the nearest walked ancestor).
    func baseURI(at location: Location) -> String {
        var pointer = location.pointer
        while true {
            if let base = baseURIs[Location(document: location.document, pointer: pointer)] { return base }
            guard let slash = pointer.lastIndex(of: "/") else { return "" }
            pointer = String(pointer[..<slash])
        }
    }

    /// The resource URI `location` belongs to.
    func resourceURI(at location: Location) -> String {
        var pointer = location.pointer
        while true {
            if let uri = owningResource[Location(document: location.document, pointer: pointer)] { return uri }
            guard let slash = pointer.lastIndex(of: "/") else { return "" }
            pointer = String(pointer[..<slash])
        }
    }

    private mutating func index(_ schema: JSONValue, at location: Location, base: String, resource: String) {
        guard case .object(let object) = schema else {
            baseURIs[location] = base
            owningResource[location] = resource
            return
        }
        var base = base
        var resource = resource
        if case .string(let id) = object["$id"] {
            base = URIReference.resolve(id, against: base).uri
            resource = base
            if resources[base] == nil { resources[base] = location }
        }
        baseURIs[location] = base
        owningResource[location] = resource
        if case .string(let anchor) = object["$anchor"] { anchors[base + "#" + anchor] = location }
        if case .string(let anchor) = object["$dynamicAnchor"] {
            if anchors[base + "#" + anchor] == nil { anchors[base + "#" + anchor] = location }
            dynamicAnchors[base, default: [:]][anchor] = location
        }
        for (keyword, value) in object {
            let child = location.pointer + "/" + JSONPointer.escape(keyword)
            if Self.singleSchemaKeywords.contains(keyword) {
                index(value, at: Location(document: location.document, pointer: child), base: base, resource: resource)
            } else if Self.schemaMapKeywords.contains(keyword), case .object(let members) = value {
                for (name, member) in members {
                    let pointer = child + "/" + JSONPointer.escape(name)
                    index(member, at: Location(document: location.document, pointer: pointer), base: base, resource: resource)
                }
            } else if Self.schemaArrayKeywords.contains(keyword), case .array(let elements) = value {
                for (position, element) in elements.enumerated() {
                    let pointer = child + "/" + String(position)
                    index(element, at: Location(document: location.document, pointer: pointer), base: base, resource: resource)
                }
            }
        }
    }
}
