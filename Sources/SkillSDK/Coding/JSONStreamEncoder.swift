import SkillJSON

/// Encodes `Encodable` values straight to compact JSON bytes, without a ``JSONValue`` tree in between: what
/// a skill's output costs on the call path.
///
/// The text is exactly `JSONValueEncoder().encode(value).serialized()`. The stream writes each member as it
/// comes, so it gives up (returns nil) where only a tree can follow the value: a member written twice, a
/// container written to after a later sibling was started, a value written twice into one slot, a
/// container of another kind asked for in a slot already used, and on every error. The caller then uses
/// ``JSONValueEncoder``, which also produces the error the user sees.
enum JSONStreamEncoder {
    /// `value` as JSON text, or nil when the tree encoder must do it.
    static func encode<T: Encodable>(_ value: T) -> JSONText? {
        let stream = JSONStream()
        do {
            try value.encode(to: JSONStreamTreeEncoder(stream: stream, serial: stream.openSlot(), codingPath: []))
            return stream.finish()
        } catch {
            return nil
        }
    }
}

/// The `Encoder` for one slot of a ``JSONStream``.
struct JSONStreamTreeEncoder: Encoder {
    let stream: JSONStream
    let serial: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let failed = (try? stream.beginObject(serial)) == nil
        return KeyedEncodingContainer(
            StreamKeyedContainer<Key>(stream: stream, serial: serial, codingPath: codingPath, broken: failed))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let failed = (try? stream.beginArray(serial)) == nil
        return StreamUnkeyedContainer(stream: stream, serial: serial, codingPath: codingPath, broken: failed)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(stream: stream, serial: serial, codingPath: codingPath)
    }
}

private struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: JSONStream
    let serial: Int
    let codingPath: [any CodingKey]
    /// The container could not be opened (the stream has given up): every write gives up.
    let broken: Bool

    private func begin(_ key: Key) throws(JSONStream.Unsupported) {
        guard !broken else { throw JSONStream.Unsupported() }
        try stream.beginMember(serial, key: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        stream.writeNull()
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        stream.write(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        stream.write(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try stream.write(value)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try stream.write(Double(value))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        stream.write(Int64(value))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T, _ key: Key) throws {
        try begin(key)
        try stream.write(integer: value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try stream.writeValue(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        member(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        member(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        member(key: "super", codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { member(key) }

    /// The encoder of a new member slot (a broken one when the stream has given up).
    private func member(_ key: Key) -> JSONStreamTreeEncoder {
        member(key: key.stringValue, codingPath: codingPath + [key])
    }

    private func member(key: String, codingPath: [any CodingKey]) -> JSONStreamTreeEncoder {
        guard !broken, (try? stream.beginMember(serial, key: key)) != nil else {
            return JSONStreamTreeEncoder(stream: stream, serial: 0, codingPath: codingPath)
        }
        return JSONStreamTreeEncoder(stream: stream, serial: stream.openSlot(), codingPath: codingPath)
    }
}

private struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let stream: JSONStream
    let serial: Int
    let codingPath: [any CodingKey]
    let broken: Bool

    var count: Int { stream.elementCount(serial) }

    private func begin() throws(JSONStream.Unsupported) -> Int {
        guard !broken else { throw JSONStream.Unsupported() }
        return try stream.beginElement(serial)
    }

    mutating func encodeNil() throws {
        _ = try begin()
        stream.writeNull()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let position = try begin()
        try stream.writeValue(value, codingPath: codingPath + [IndexKey(position)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        element().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { element().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { element() }

    /// The encoder of a new element slot (a broken one when the stream has given up).
    private func element() -> JSONStreamTreeEncoder {
        guard let position = try? begin() else {
            return JSONStreamTreeEncoder(stream: stream, serial: 0, codingPath: codingPath)
        }
        return JSONStreamTreeEncoder(
            stream: stream, serial: stream.openSlot(), codingPath: codingPath + [IndexKey(position)])
    }
}

private struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let stream: JSONStream
    let serial: Int
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { try stream.writeSingle(serial) { $0.writeNull() } }
    mutating func encode(_ value: Bool) throws { try stream.writeSingle(serial) { $0.write(value) } }
    mutating func encode(_ value: String) throws { try stream.writeSingle(serial) { $0.write(value) } }
    mutating func encode(_ value: Double) throws { try encodeNumber(value) }
    mutating func encode(_ value: Float) throws { try encodeNumber(Double(value)) }
    mutating func encode(_ value: Int) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try stream.store(value, inSlot: serial, codingPath: codingPath)
    }

    private func encodeNumber(_ value: Double) throws {
        guard value.isFinite else { throw stream.giveUp() }
        try stream.writeSingle(serial) { $0.write(finite: value) }
    }

    private func encodeInteger<T: FixedWidthInteger>(_ value: T) throws {
        guard let wide = Int64(exactly: value) else { throw stream.giveUp() }
        try stream.writeSingle(serial) { $0.write(wide) }
    }
}
