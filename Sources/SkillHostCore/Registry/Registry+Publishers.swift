import SkillJSON

/// A key the user trusts to sign plugin packages (registry `publishers`, `skillhost keys trust`).
public struct TrustedPublisher: Sendable, Equatable {
    /// The key.
    public var key: MinisignPublicKey
    /// What the user calls the publisher ("Acme"); the key id when not named.
    public var name: String

    public init(key: MinisignPublicKey, name: String) {
        self.key = key
        self.name = name
    }

    /// "Acme (key 6B5B1E26E20DA92E)", or just the key when it has no name of its own.
    public var label: String { name == key.id ? "key \(key.id)" : "\(name) (key \(key.id))" }
}

extension Registry {
    /// The trusted publishers (`publishers`), by key id order.
    public var publishers: [TrustedPublisher] {
        guard let entries = document["publishers"]?.objectValue else { return [] }
        return entries.keys.sorted().compactMap { id in publisher(id: id) }
    }

    /// The trusted publisher with this key id (upper case hex), if any.
    public func publisher(id: String) -> TrustedPublisher? {
        guard let entry = document["publishers"]?[id.uppercased()], let line = entry["key"]?.stringValue,
            let key = try? MinisignPublicKey(parsing: line, source: "publishers")
        else { return nil }
        return TrustedPublisher(key: key, name: entry["name"]?.stringValue ?? key.id)
    }

    /// Trusts `key` under `name` (replacing an entry for the same key).
    public mutating func setPublisher(_ key: MinisignPublicKey, name: String) {
        var entries = document["publishers"]?.objectValue ?? JSONObject()
        entries[key.id] = ["key": .string(key.base64), "name": .string(name)]
        document["publishers"] = .object(entries)
    }

    /// Stops trusting the key with this id; false when it was not trusted.
    @discardableResult
    public mutating func removePublisher(id: String) -> Bool {
        guard var entries = document["publishers"]?.objectValue, entries[id.uppercased()] != nil else { return false }
        entries[id.uppercased()] = nil
        document["publishers"] = .object(entries)
        return true
    }

    /// The key id recorded as the signer of the installed plugin (`plugins.<id>.publisher`).
    public func pluginPublisher(_ pluginID: String) -> String? {
        pluginEntry(pluginID)?["publisher"]?.stringValue
    }
}
