import SkillJSON

/// Remembers scan outcomes (`scan_cache.json` in the cache folder) so unchanged files are never loaded
/// again: an entry is valid while the file's path, size, modification time and inode are the same.
///
/// The file is a cache: one that does not parse is treated as empty and rewritten. Writes are atomic and
/// locked (`scan_cache.json.lock`), so concurrent processes do not lose each other's entries.
public struct ScanCache: Sendable {
    /// What identifies one version of a file.
    public struct FileKey: Sendable, Equatable {
        /// File size in bytes.
        public var size: Int64
        /// Modification time in nanoseconds since the epoch.
        public var modificationNanoseconds: Int64
        /// Inode number (a replaced file has a new one).
        public var inode: UInt64

        /// Creates a key.
        public init(size: Int64, modificationNanoseconds: Int64, inode: UInt64) {
            self.size = size
            self.modificationNanoseconds = modificationNanoseconds
            self.inode = inode
        }

        /// The key of the file at `path` now.
        public init(path: String) throws(HostError) {
            let status = try Posix.status(ofPath: path)
            self.init(size: status.size, modificationNanoseconds: status.modificationNanoseconds, inode: status.inode)
        }
    }

    /// One remembered outcome.
    public struct Entry: Sendable, Equatable {
        /// The file version the outcome belongs to.
        public var key: FileKey
        /// What scanning that version found.
        public var outcome: ScanOutcome
        /// The ``ManifestValidator/rulesFingerprint`` under which the manifest passed every check, so the
        /// catalog does not check (and compile its parameter schemas) again; nil when not known.
        public var checkedRules: String? = nil
    }

    /// The cache folder.
    public let directory: String
    /// The cache file.
    public var file: String { directory + "/scan_cache.json" }

    /// The cache in `directory` (made absolute).
    public init(directory: String) { self.directory = Posix.absolutePath(directory) }

    /// Every entry, keyed by absolute path; empty when the file is missing or unreadable.
    public func load() -> [String: Entry] {
        guard let bytes = try? Posix.readFile(atPath: file), let document = try? JSONValue(parsing: bytes),
            document["version"]?.intValue == 1, let entries = document["entries"]?.objectValue
        else { return [:] }
        var result: [String: Entry] = [:]
        for (path, value) in entries {
            guard let size = value["size"]?.intValue, let modified = value["mtime_ns"]?.intValue,
                let inode = value["inode"]?.intValue, let outcome = ScanOutcome(json: value)
            else { continue }
            result[path] = Entry(
                key: FileKey(size: size, modificationNanoseconds: modified, inode: UInt64(bitPattern: inode)),
                outcome: outcome, checkedRules: value["checked_rules"]?.stringValue)
        }
        return result
    }

    /// The remembered outcome for the file at `path` when `key` still matches.
    public func outcome(forPath path: String, key: FileKey) -> ScanOutcome? {
        guard let entry = load()[path], entry.key == key else { return nil }
        return entry.outcome
    }

    /// Stores new entries (and removes those whose file no longer exists) under the lock.
    public func store(_ updates: [String: Entry]) throws(HostError) {
        try modify { entries in
            for (path, entry) in updates { entries[path] = entry }
            entries = entries.filter { Posix.exists($0.key) }
        }
    }

    /// Marks the current version of the file at `path` broken with `reason` (for example after repeated
    /// worker crashes); `list` shows it until the file changes or `skillhost rescan` runs.
    public func markBroken(path: String, reason: String) throws(HostError) {
        let path = Posix.absolutePath(path)
        let key = try FileKey(path: path)
        try modify { entries in
            entries[path] = Entry(key: key, outcome: ScanOutcome(status: .broken, error: reason))
        }
    }

    /// Forgets every entry (the next catalog scans every file again).
    public func clear() throws(HostError) {
        try modify { $0 = [:] }
    }

    private func modify(_ body: (inout [String: Entry]) -> Void) throws(HostError) {
        let lock = try Posix.lockExclusively(file + ".lock")
        defer { Posix.unlock(lock) }
        var entries = load()
        body(&entries)
        var object = JSONObject()
        for path in entries.keys.sorted() {
            let entry = entries[path]!
            guard case .object(var member) = entry.outcome.json else { continue }
            member["size"] = .int(entry.key.size)
            member["mtime_ns"] = .int(entry.key.modificationNanoseconds)
            member["inode"] = .int(Int64(bitPattern: entry.key.inode))
            if let rules = entry.checkedRules { member["checked_rules"] = .string(rules) }
            object[path] = .object(member)
        }
        let document: JSONValue = ["version": 1, "entries": .object(object)]
        try Posix.writeFileAtomically(file, bytes: Array(document.serialized().utf8))
    }
}
