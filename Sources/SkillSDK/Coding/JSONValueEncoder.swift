import SkillJSON

/// Encodes `Encodable` values straight into a ``JSONValue`` tree, without Foundation's `JSONEncoder`.
///
/// Object members keep the order the type encodes them in; `nil` optionals encoded with `encodeIfPresent`
/// (the synthesized default) are left out. Non-finite doubles are an error, as JSON has no NaN.
public struct JSONValueEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// Encodes `value` as a JSON tree.
    /// - Throws: `EncodingError` for non-finite numbers or a type that encodes nothing.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = JSONNode()
        try value.encode(to: JSONTreeEncoder(node: node, codingPath: []))
        guard let result = node.value else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(T.self) encoded no value"))
        }
        return result
    }
}

/// A mutable slot in the tree under construction; containers write into it, nested ones through children.
///
/// An object keeps its plain members in a ``JSONObject`` as they come (no node per member: a skill's
/// output is mostly strings and numbers); a member that is itself a container holds a placeholder there,
/// in its place in the order, and is filled in from its child node when the value is taken.
final class JSONNode {
    enum Kind { case empty, single, object, array }

    private(set) var kind = Kind.empty
    private var single = JSONValue.null
    /// Made by ``makeObject()``: leaves and arrays never allocate one.
    private var object: JSONObject?
    /// The members of ``object`` that are containers, with the nodes they are built in.
    private var nested: [(key: String, node: JSONNode)] = []
    private(set) var elements: [JSONNode] = []

    /// The finished value; nil when nothing was encoded.
    var value: JSONValue? {
        switch kind {
        case .empty: return nil
        case .single: return single
        case .object:
            var result = object ?? JSONObject()
            for (key, child) in nested { result[key] = child.value ?? .null }
            return .object(result)
        case .array: return .array(elements.map { $0.value ?? .null })
        }
    }

    /// Makes this node a leaf holding `value`.
    func set(_ value: JSONValue) {
        kind = .single
        single = value
    }

    /// Sets the plain member `key`, turning this node into an object if it is not one yet.
    func setMember(_ key: String, _ value: JSONValue) {
        makeObject()
        if !nested.isEmpty { nested.removeAll { $0.key == key } }
        object![key] = value
    }

    /// The child for `key`, turning this node into an object if it is not one yet.
    func member(_ key: String) -> JSONNode {
        makeObject()
        if let existing = nested.first(where: { $0.key == key }) { return existing.node }
        let child = JSONNode()
        object![key] = .null  // the member's place in the order; its value comes from `child`
        nested.append((key, child))
        return child
    }

    /// A new last element, turning this node into an array if it is not one yet.
    func appendElement() -> JSONNode {
        makeArray()
        let child = JSONNode()
        elements.append(child)
        return child
    }

    func makeObject() {
        guard kind != .object else { return }
        kind = .object
        object = JSONObject()
        nested = []
    }

    func makeArray() {
        guard kind != .array else { return }
        kind = .array
        elements = []
    }
}

/// The `Encoder` writing into one node.
struct JSONTreeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }

    /// Stores `value` in `node`, taking the primitive types directly.
    static func store<T: Encodable>(_ value: T, in node: JSONNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let value as String: node.set(.string(value))
        case let value as Bool: node.set(.bool(value))
        case let value as Int: node.set(.int(Int64(value)))
        case let value as Int64: node.set(.int(value))
        case let value as Double: node.set(try number(value, codingPath))
        default: try value.encode(to: JSONTreeEncoder(node: node, codingPath: codingPath))
        }
    }

    static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "JSON cannot hold the number \(value)"))
        }
        return .double(value)
    }

    static func integer<T: FixedWidthInteger>(_ value: T, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard let wide = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) does not fit in a 64-bit integer"))
        }
        return .int(wide)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) { node.setMember(key.stringValue, value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try JSONTreeEncoder.number(value, codingPath + [key]), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try JSONTreeEncoder.number(Double(value), codingPath + [key]), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        set(try JSONTreeEncoder.integer(value, codingPath + [key]), key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        set(try JSONTreeEncoder.integer(value, codingPath + [key]), key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        switch value {
        case let value as String: set(.string(value), key)
        case let value as Bool: set(.bool(value), key)
        case let value as Int: set(.int(Int64(value)), key)
        case let value as Int64: set(.int(value), key)
        case let value as Double: set(try JSONTreeEncoder.number(value, codingPath + [key]), key)
        default: try JSONTreeEncoder.store(value, in: node.member(key.stringValue), codingPath: codingPath + [key])
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        JSONTreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONTreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    var count: Int { node.elements.count }

    private var nextKey: IndexKey { IndexKey(count) }

    mutating func encodeNil() throws { node.appendElement().set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [nextKey]
        try JSONTreeEncoder.store(value, in: node.appendElement(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [nextKey]
        return JSONTreeEncoder(node: node.appendElement(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        return JSONTreeEncoder(node: node.appendElement(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [nextKey]
        return JSONTreeEncoder(node: node.appendElement(), codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(try JSONTreeEncoder.number(value, codingPath)) }
    mutating func encode(_ value: Float) throws {
        node.set(try JSONTreeEncoder.number(Double(value), codingPath))
    }
    mutating func encode(_ value: Int) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.set(.int(value)) }
    mutating func encode(_ value: UInt) throws { node.set(try JSONTreeEncoder.integer(value, codingPath)) }
    mutating func encode(_ value: UInt8) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { node.set(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws {
        node.set(try JSONTreeEncoder.integer(value, codingPath))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try JSONTreeEncoder.store(value, in: node, codingPath: codingPath)
    }
}
