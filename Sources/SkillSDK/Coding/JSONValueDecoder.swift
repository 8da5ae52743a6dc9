import SkillJSON

/// Decodes `Decodable` values straight from a ``JSONValue`` tree, without Foundation's `JSONDecoder`.
///
/// Numbers convert when they fit exactly (`2.0` decodes as an `Int`, `2.5` does not); `null` and absent
/// members decode as `nil` for optionals. Errors are `DecodingError`s with the full coding path;
/// ``decodeArguments(_:from:)`` turns them into a ``SkillError`` with a JSON pointer.
public struct JSONValueDecoder: Sendable {
    /// A decoder.
    public init() {}

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` naming the coding path, or any error the type's `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        if case .object(let object) = value { return try T(from: JSONObjectDecoder(object: object, codingPath: [])) }
        return try T(from: JSONTreeDecoder(value: value, codingPath: []))
    }

    /// Decodes skill arguments, reporting a mismatch as an invalid argument at its JSON pointer.
    /// - Throws: ``SkillError`` of kind ``SkillError/Kind/invalidArguments``.
    public func decodeArguments<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(SkillError) -> T {
        do {
            return try decode(type, from: value)
        } catch let error as SkillError {
            throw error
        } catch let error as DecodingError {
            throw SkillError(decodingError: error)
        } catch {
            throw SkillError.invalidArguments(field: "", message: "\(error)")
        }
    }
}

/// The `Decoder` over one node of the tree.
final class JSONTreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(expected: "an object", at: codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array", at: codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    func mismatch(expected: String, at path: [any CodingKey]) -> DecodingError {
        .typeMismatch(
            Any.self, .init(codingPath: path, debugDescription: "expected \(expected), found \(value.typeName)"))
    }
}

/// The `Decoder` over an object node, as ``JSONTreeDecoder`` decodes one: two references, so passing it as
/// `any Decoder` needs no heap box (and no object is made) for the usual arguments and nested structs.
struct JSONObjectDecoder: Decoder {
    let object: JSONObject
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try JSONTreeDecoder(value: .object(object), codingPath: codingPath).unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try JSONTreeDecoder(value: .object(object), codingPath: codingPath).singleValueContainer()
    }
}

/// Converts one JSON node to the primitive types `Decodable` asks for.
struct JSONPrimitive {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func error(_ expected: String) -> DecodingError {
        let found = value.isNull ? "null" : value.typeName
        return .typeMismatch(
            Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }

    func bool() throws -> Bool {
        guard let result = value.boolValue else { throw error("a boolean") }
        return result
    }

    func string() throws -> String {
        guard let result = value.stringValue else { throw error("a string") }
        return result
    }

    func double() throws -> Double {
        guard let result = value.doubleValue else { throw error("a number") }
        return result
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let wide = value.intValue else { throw error("an integer") }
        guard let result = T(exactly: wide) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "\(wide) does not fit in \(T.self)"))
        }
        return result
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try string() as! T
        case is Bool.Type: return try bool() as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is Double.Type: return try double() as! T
        default:
            if case .object(let object) = value {
                return try T(from: JSONObjectDecoder(object: object, codingPath: codingPath))
            }
            return try T(from: JSONTreeDecoder(value: value, codingPath: codingPath))
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONPrimitive {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "missing required member \"\(key.stringValue)\""))
        }
        return JSONPrimitive(value: value, codingPath: codingPath + [key])
    }

    /// The member's value; its coding path is built only when something fails (most decodes succeed).
    private func value(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else { return try member(key).value }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue]?.isNull ?? true }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = try value(key)
        return try value.boolValue ?? JSONPrimitive(value: value, codingPath: codingPath + [key]).bool()
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try value(key)
        return try value.stringValue ?? JSONPrimitive(value: value, codingPath: codingPath + [key]).string()
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let value = try value(key)
        return try value.doubleValue ?? JSONPrimitive(value: value, codingPath: codingPath + [key]).double()
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try member(key).double()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).integer(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).integer(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).integer(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).integer(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).integer(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).integer(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).integer(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).integer(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).integer(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try JSONPrimitive(value: value, codingPath: codingPath + [key]).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let member = try member(key)
        return try JSONTreeDecoder(value: member.value, codingPath: member.codingPath).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let member = try member(key)
        return try JSONTreeDecoder(value: member.value, codingPath: member.codingPath).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { JSONTreeDecoder(value: .object(object), codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONTreeDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> JSONPrimitive {
        let key = IndexKey(currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                .init(codingPath: codingPath + [key], debugDescription: "the array has only \(elements.count) elements")
            )
        }
        defer { currentIndex += 1 }
        return JSONPrimitive(value: elements[currentIndex], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let element = try next()
        return try JSONTreeDecoder(value: element.value, codingPath: element.codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try next()
        return try JSONTreeDecoder(value: element.value, codingPath: element.codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let element = try next()
        return JSONTreeDecoder(value: element.value, codingPath: element.codingPath)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    private var primitive: JSONPrimitive { JSONPrimitive(value: value, codingPath: codingPath) }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try primitive.bool() }
    func decode(_ type: String.Type) throws -> String { try primitive.string() }
    func decode(_ type: Double.Type) throws -> Double { try primitive.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try primitive.double()) }
    func decode(_ type: Int.Type) throws -> Int { try primitive.integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try primitive.integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try primitive.integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try primitive.integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try primitive.integer(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try primitive.integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive.integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive.integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive.integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive.integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try primitive.decode(type) }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}
