/// A set of property names tuned for the few names a tool schema lists: a linear scan of short strings
/// for small sets (cheaper than hashing), a hash set for large ones.
struct NameSet: Sendable {
    /// The names, in schema order.
    let names: [String]
    private let lengths: [Int]
    private let hashed: [String: Int]?

    init(_ names: [String]) {
        self.names = names
        lengths = names.map(\.utf8.count)
        hashed = names.count > 12 ? Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    /// Whether `name` is in the set.
    func contains(_ name: String) -> Bool { position(of: name) != nil }

    /// The position of `name` in ``names``.
    func position(of name: String) -> Int? {
        if let hashed { return hashed[name] }
        let length = name.utf8.count
        for position in names.indices where lengths[position] == length && names[position] == name { return position }
        return nil
    }

    var isEmpty: Bool { names.isEmpty }
}
