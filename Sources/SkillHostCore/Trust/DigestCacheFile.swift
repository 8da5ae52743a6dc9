import SkillJSON

/// Remembers plugin files' SHA-256 digests across processes (`trust_digests.json` in the cache folder), so
/// `list` and every call can compare a trusted plugin with its pinned digest for the cost of a `stat`.
/// An entry is valid while the file's size, modification time and inode are those it was hashed at.
///
/// A cache: a file that does not parse is treated as empty and rewritten; writes are atomic and locked
/// (`trust_digests.json.lock`) so concurrent processes keep each other's entries.
public struct DigestCacheFile: Sendable {
    /// The cache file.
    public let file: String

    /// The cache in `directory` (made absolute).
    public init(directory: String) { file = Posix.absolutePath(directory) + "/trust_digests.json" }

    /// The remembered digest of the file at `path` when `key` still matches.
    public func digest(forPath path: String, key: ScanCache.FileKey) -> String? {
        guard let entry = load()[path], entry.key == key else { return nil }
        return entry.digest
    }

    /// Remembers `digest` for the version `key` of the file at `path`, and forgets files that are gone.
    public func store(_ digest: String, forPath path: String, key: ScanCache.FileKey) throws(HostError) {
        let lock = try Posix.lockExclusively(file + ".lock")
        defer { Posix.unlock(lock) }
        var entries = load().filter { Posix.exists($0.key) }
        entries[path] = (key, digest)
        var object = JSONObject()
        for path in entries.keys.sorted() {
            let (key, digest) = entries[path]!
            object[path] = [
                "sha256": .string(digest), "size": .int(key.size), "mtime_ns": .int(key.modificationNanoseconds),
                "inode": .int(Int64(bitPattern: key.inode)),
            ]
        }
        let document: JSONValue = ["version": 1, "entries": .object(object)]
        try Posix.writeFileAtomically(file, bytes: Array(document.serialized().utf8))
    }

    private func load() -> [String: (key: ScanCache.FileKey, digest: String)] {
        guard let bytes = try? Posix.readFile(atPath: file), let document = try? JSONValue(parsing: bytes),
            document["version"]?.intValue == 1, let entries = document["entries"]?.objectValue
        else { return [:] }
        var result: [String: (key: ScanCache.FileKey, digest: String)] = [:]
        for (path, value) in entries {
            guard let digest = value["sha256"]?.stringValue, let size = value["size"]?.intValue,
                let modified = value["mtime_ns"]?.intValue, let inode = value["inode"]?.intValue
            else { continue }
            result[path] = (ScanCache.FileKey(size: size, modificationNanoseconds: modified, inode: UInt64(bitPattern: inode)), digest)
        }
        return result
    }
}
