/// A JSON object that remembers the order its keys were first inserted in.
///
/// Iteration, ``keys`` and serialization follow insertion order. Setting an existing key keeps its
/// position. Equality ignores order (JSON objects are unordered). Small objects (the usual tool-call
/// arguments) are searched linearly, which beats hashing for a handful of short keys; larger ones keep a
/// hash index.
public struct JSONObject: Sendable, Hashable {
    /// The members, shared between copies until one of them changes (copy on write). A single
    /// reference, so copying an object (or a ``JSONValue`` holding one) costs one retain.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var keys: [String]
        @usableFromInline @exclusivity(unchecked) var values: [JSONValue]
        /// A hash index, only for objects too large for a linear search.
        @exclusivity(unchecked) var index: [String: Int]?

        init(keys: [String] = [], values: [JSONValue] = [], index: [String: Int]? = nil) {
            self.keys = keys
            self.values = values
            self.index = index
        }
    }

    @usableFromInline var storage: Storage

    /// Objects with more members than this get a hash index.
    private static let linearLimit = 12

    /// An empty object.
    public init() { storage = Storage() }

    /// An object with these members, in this order; a repeated key keeps its first position and last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        storage = Storage()
        for (key, value) in members { self[key] = value }
    }

    /// Keys in insertion order.
    public var keys: [String] { storage.keys }

    /// The number of members.
    @inlinable public var count: Int { storage.keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { storage.keys.isEmpty }

    /// The position of `key` in ``keys``.
    private func position(of key: String) -> Int? {
        if let index = storage.index { return index[key] }
        // Comparing lengths first skips most string comparisons (which are slow when strings differ).
        let length = key.utf8.count
        let keys = storage.keys
        for position in keys.indices where keys[position].utf8.count == length && keys[position] == key {
            return position
        }
        return nil
    }

    /// Whether the object has a member named `key` (cheaper than fetching its value).
    public func hasMember(_ key: String) -> Bool { position(of: key) != nil }

    /// The key and value at a position in insertion order (0 ..< count).
    public func member(at position: Int) -> (key: String, value: JSONValue) {
        (storage.keys[position], storage.values[position])
    }

    /// Calls `body` with the keys and the values in insertion order, borrowed in place (no copies, no
    /// reference counting per member): the validator's hot loops read objects through this.
    @inlinable package func withMembers<Result>(
        _ body: (UnsafeBufferPointer<String>, UnsafeBufferPointer<JSONValue>) throws -> Result
    ) rethrows -> Result {
        try storage.keys.withUnsafeBufferPointer { keys in
            try storage.values.withUnsafeBufferPointer { values in try body(keys, values) }
        }
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
                storage = Storage(keys: storage.keys, values: storage.values, index: storage.index)
            }
            if let newValue {
                if let existing {
                    storage.values[existing] = newValue
                } else {
                    storage.keys.append(key)
                    storage.values.append(newValue)
                    if storage.index != nil {
                        storage.index![key] = storage.keys.count - 1
                    } else if storage.keys.count > Self.linearLimit {
                        rebuildIndex()
                    }
                }
            } else if let existing {
                storage.keys.remove(at: existing)
                storage.values.remove(at: existing)
                if storage.index != nil { rebuildIndex() }
            }
        }
    }

    private func rebuildIndex() {
        guard storage.keys.count > Self.linearLimit else {
            storage.index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(storage.keys.count)
        for (position, key) in storage.keys.enumerated() { built[key] = position }
        storage.index = built
    }

    /// Members in insertion order.
    public var members: [(key: String, value: JSONValue)] {
        let keys = storage.keys
        let values = storage.values
        return keys.indices.map { (keys[$0], values[$0]) }
    }

    /// The values keyed by name, without order.
    public var dictionary: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(count)
        for position in storage.keys.indices { result[storage.keys[position]] = storage.values[position] }
        return result
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard lhs.count == rhs.count else { return false }
        for position in lhs.storage.keys.indices {
            guard let other = rhs[lhs.storage.keys[position]], other == lhs.storage.values[position] else { return false }
        }
        return true
    }

    /// Order-independent, consistent with ``==``.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for position in storage.keys.indices {
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
        private let keys: [String]
        private let values: [JSONValue]
        private var position = 0

        fileprivate init(_ keys: [String], _ values: [JSONValue]) {
            self.keys = keys
            self.values = values
        }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < keys.count else { return nil }
            defer { position += 1 }
            return (keys[position], values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(storage.keys, storage.values) }

    public var underestimatedCount: Int { storage.keys.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
