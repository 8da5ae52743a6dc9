/// A JSON object that remembers the order its keys were first inserted in.
///
/// Iteration, ``keys`` and serialization follow insertion order. Setting an existing key keeps its
/// position. Equality ignores order (JSON objects are unordered). Small objects (the usual tool-call
/// arguments) are searched linearly, which beats hashing for a handful of short keys; larger ones keep a
/// hash index.
public struct JSONObject: Sendable, Hashable {
    /// Keys in insertion order.
    public private(set) var keys: [String] = []
    private var values: [JSONValue] = []
    /// A hash index, only for objects too large for a linear search.
    private var index: [String: Int]?

    /// Objects with more members than this get a hash index.
    private static let linearLimit = 12

    /// An empty object.
    public init() {}

    /// An object with these members, in this order; a repeated key keeps its first position and last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key` in ``keys``.
    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        // Comparing lengths first skips most string comparisons (which are slow when strings differ).
        let length = key.utf8.count
        for position in keys.indices where keys[position].utf8.count == length && keys[position] == key {
            return position
        }
        return nil
    }

    /// The key and value at a position in insertion order (0 ..< count).
    public func member(at position: Int) -> (key: String, value: JSONValue) { (keys[position], values[position]) }

    /// The value for `key`; assigning `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return values[position]
        }
        set {
            let existing = position(of: key)
            if let newValue {
                if let existing {
                    values[existing] = newValue
                } else {
                    keys.append(key)
                    values.append(newValue)
                    if index != nil {
                        index![key] = keys.count - 1
                    } else if keys.count > Self.linearLimit {
                        rebuildIndex()
                    }
                }
            } else if let existing {
                keys.remove(at: existing)
                values.remove(at: existing)
                if index != nil { rebuildIndex() }
            }
        }
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.linearLimit else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        index = built
    }

    /// Members in insertion order.
    public var members: [(key: String, value: JSONValue)] { keys.indices.map { (keys[$0], values[$0]) } }

    /// The values keyed by name, without order.
    public var dictionary: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(keys.count)
        for position in keys.indices { result[keys[position]] = values[position] }
        return result
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for position in lhs.keys.indices {
            guard let other = rhs[lhs.keys[position]], other == lhs.values[position] else { return false }
        }
        return true
    }

    /// Order-independent, consistent with ``==``.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for position in keys.indices {
            var member = Hasher()
            member.combine(keys[position])
            member.combine(values[position])
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

    public func makeIterator() -> Iterator { Iterator(keys, values) }

    public var underestimatedCount: Int { keys.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
