/// A JSON object that remembers the order its keys were first inserted in.
///
/// Iteration, ``keys`` and serialization follow insertion order. Setting an existing key keeps its
/// position. Equality ignores order (JSON objects are unordered). Small objects (the usual tool-call
/// arguments) are searched linearly, which beats hashing for a handful of short keys; larger ones keep a
/// hash index.
public struct JSONObject: Sendable, Hashable {
    /// The members, shared between copies until one of them changes (copy on write). A single
    /// reference, so copying an object (or a ``JSONValue`` holding one) costs one retain. Keys and values
    /// live side by side in one buffer of its own (not arrays), so reading them costs no reference
    /// counting and touches few cache lines.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var keys: UnsafeMutablePointer<String>
        @usableFromInline @exclusivity(unchecked) var values: UnsafeMutablePointer<JSONValue>
        /// Initialized members (`keys[0..<count]`, `values[0..<count]`).
        @usableFromInline @exclusivity(unchecked) var count: Int
        @exclusivity(unchecked) var capacity: Int
        /// A hash index, only for objects too large for a linear search.
        @exclusivity(unchecked) var index: [String: Int]?

        init(capacity: Int) {
            // `allocate` makes room for at least one member: count it, so the first insert does not regrow.
            self.capacity = Swift.max(capacity, 1)
            (keys, values) = Self.allocate(capacity)
            count = 0
        }

        deinit {
            keys.deinitialize(count: count)
            values.deinitialize(count: count)
            UnsafeMutableRawPointer(keys).deallocate()
        }

        /// One allocation holding `capacity` keys followed by `capacity` values (uninitialized).
        private static func allocate(
            _ capacity: Int
        ) -> (keys: UnsafeMutablePointer<String>, values: UnsafeMutablePointer<JSONValue>) {
            let capacity = Swift.max(capacity, 1)
            let alignment = Swift.max(MemoryLayout<String>.alignment, MemoryLayout<JSONValue>.alignment)
            let keyBytes = capacity * MemoryLayout<String>.stride
            let valuesOffset = (keyBytes + alignment - 1) / alignment * alignment
            let raw = UnsafeMutableRawPointer.allocate(
                byteCount: valuesOffset + capacity * MemoryLayout<JSONValue>.stride, alignment: alignment)
            return (
                raw.bindMemory(to: String.self, capacity: capacity),
                (raw + valuesOffset).bindMemory(to: JSONValue.self, capacity: capacity)
            )
        }

        /// A copy of these members with room for at least `capacity`.
        func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: Swift.max(capacity, count))
            copy.keys.initialize(from: keys, count: count)
            copy.values.initialize(from: values, count: count)
            copy.count = count
            copy.index = index
            return copy
        }

        /// Appends a member (the key must be new).
        func append(_ key: String, _ value: JSONValue) {
            if count == capacity { grow() }
            (keys + count).initialize(to: key)
            (values + count).initialize(to: value)
            count += 1
        }

        /// Removes the member at `position`, moving the later ones down.
        func remove(at position: Int) {
            let later = count - position - 1
            (keys + position).deinitialize(count: 1)
            (keys + position).moveInitialize(from: keys + position + 1, count: later)
            (values + position).deinitialize(count: 1)
            (values + position).moveInitialize(from: values + position + 1, count: later)
            count -= 1
        }

        private func grow() {
            let newCapacity = Swift.max(4, capacity * 2)
            let (newKeys, newValues) = Self.allocate(newCapacity)
            newKeys.moveInitialize(from: keys, count: count)
            newValues.moveInitialize(from: values, count: count)
            UnsafeMutableRawPointer(keys).deallocate()
            keys = newKeys
            values = newValues
            capacity = newCapacity
        }
    }

    @usableFromInline var storage: Storage

    /// Objects with more members than this get a hash index.
    private static let linearLimit = 12

    /// An empty object.
    public init() { storage = Storage(capacity: 0) }

    /// An empty object with room for `minimumCapacity` members before it grows.
    public init(minimumCapacity: Int) { storage = Storage(capacity: Swift.max(1, minimumCapacity)) }

    /// An object with these members, in this order; a repeated key keeps its first position and last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        storage = Storage(capacity: members.underestimatedCount)
        for (key, value) in members { self[key] = value }
    }

    /// Keys in insertion order.
    public var keys: [String] { Array(UnsafeBufferPointer(start: storage.keys, count: storage.count)) }

    /// The number of members.
    @inlinable public var count: Int { storage.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { storage.count == 0 }

    /// The position of `key` in ``keys``.
    private func position(of key: String) -> Int? {
        if let index = storage.index { return index[key] }
        // Comparing lengths first skips most string comparisons (which are slow when strings differ).
        let length = key.utf8.count
        let keys = storage.keys
        for position in 0..<storage.count where keys[position].utf8.count == length && keys[position] == key {
            return position
        }
        return nil
    }

    /// Whether the object has a member named `key` (cheaper than fetching its value).
    public func hasMember(_ key: String) -> Bool { position(of: key) != nil }

    /// The key and value at a position in insertion order (0 ..< count).
    public func member(at position: Int) -> (key: String, value: JSONValue) {
        precondition(position >= 0 && position < storage.count, "JSONObject member position out of range")
        return (storage.keys[position], storage.values[position])
    }

    /// Calls `body` with the keys and the values in insertion order, borrowed in place (no copies, no
    /// reference counting per member): the validator's hot loops read objects through this.
    @inlinable package func withMembers<Result>(
        _ body: (UnsafeBufferPointer<String>, UnsafeBufferPointer<JSONValue>) throws -> Result
    ) rethrows -> Result {
        try Self.withMembers(of: storage, body)
    }

    /// ``withMembers(_:)`` for the object at `value`, without retaining it (the caller keeps the value
    /// alive and unchanged for the call); nil when `value` is not an object.
    @inlinable package static func withMembers<Result>(
        at value: UnsafePointer<JSONValue>,
        _ body: (UnsafeBufferPointer<String>, UnsafeBufferPointer<JSONValue>) throws -> Result
    ) rethrows -> Result? {
        let storage: Unmanaged<Storage>
        switch value.pointee {
        case .object(let object): storage = Unmanaged.passUnretained(object.storage)
        default: return nil
        }
        return try storage._withUnsafeGuaranteedRef { try withMembers(of: $0, body) }
    }

    @inlinable static func withMembers<Result>(
        of storage: Storage, _ body: (UnsafeBufferPointer<String>, UnsafeBufferPointer<JSONValue>) throws -> Result
    ) rethrows -> Result {
        try body(
            UnsafeBufferPointer(start: storage.keys, count: storage.count),
            UnsafeBufferPointer(start: storage.values, count: storage.count))
    }

    /// The value for `key`; assigning `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return storage.values[position]
        }
        set {
            let existing = position(of: key)
            if !isKnownUniquelyReferenced(&storage) {
                storage = storage.copy(capacity: storage.count + (existing == nil && newValue != nil ? 1 : 0))
            }
            if let newValue {
                if let existing {
                    storage.values[existing] = newValue
                } else {
                    storage.append(key, newValue)
                    if storage.index != nil {
                        storage.index![key] = storage.count - 1
                    } else if storage.count > Self.linearLimit {
                        rebuildIndex()
                    }
                }
            } else if let existing {
                storage.remove(at: existing)
                if storage.index != nil { rebuildIndex() }
            }
        }
    }

    private func rebuildIndex() {
        guard storage.count > Self.linearLimit else {
            storage.index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(storage.count)
        for position in 0..<storage.count { built[storage.keys[position]] = position }
        storage.index = built
    }

    /// Members in insertion order.
    public var members: [(key: String, value: JSONValue)] {
        (0..<storage.count).map { (storage.keys[$0], storage.values[$0]) }
    }

    /// The values keyed by name, without order.
    public var dictionary: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(count)
        for position in 0..<storage.count { result[storage.keys[position]] = storage.values[position] }
        return result
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard lhs.count == rhs.count else { return false }
        for position in 0..<lhs.storage.count {
            guard let other = rhs[lhs.storage.keys[position]], other == lhs.storage.values[position] else { return false }
        }
        return true
    }

    /// Order-independent, consistent with ``==``.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for position in 0..<storage.count {
            var member = Hasher()
            member.combine(storage.keys[position])
            member.combine(storage.values[position])
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: Sequence {
    /// Iterates members in insertion order.
    public struct Iterator: IteratorProtocol {
        private let storage: Storage
        private var position = 0

        fileprivate init(_ storage: Storage) { self.storage = storage }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < storage.count else { return nil }
            defer { position += 1 }
            return (storage.keys[position], storage.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(storage) }

    public var underestimatedCount: Int { storage.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
