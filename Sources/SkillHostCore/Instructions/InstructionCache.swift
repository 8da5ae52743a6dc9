import SkillJSON

/// Remembers what reading each `SKILL.md` found (`instructions_cache.json` in the cache folder), keyed like
/// the plugin scan cache by path, size, modification time and inode, so an unchanged skill is not read again.
/// A file that does not parse is treated as empty and rewritten; writes are atomic and locked.
struct InstructionCache {
    /// What reading one version of a `SKILL.md` found.
    struct Entry: Equatable {
        var key: ScanCache.FileKey
        var frontmatter: JSONObject?
        var problems: [String]
        var bodyLines: Int
        var bodyTokens: Int
    }

    let file: String

    init(directory: String) { file = Posix.absolutePath(directory) + "/instructions_cache.json" }

    func load() -> [String: Entry] {
        guard let bytes = try? Posix.readFile(atPath: file), let document = try? JSONValue(parsing: bytes),
            document["version"]?.intValue == 1, let entries = document["entries"]?.objectValue
        else { return [:] }
        var result: [String: Entry] = [:]
        for (path, value) in entries {
            guard let size = value["size"]?.intValue, let modified = value["mtime_ns"]?.intValue,
                let inode = value["inode"]?.intValue, let problems = value["problems"]?.arrayValue,
                let lines = value["body_lines"]?.intValue, let tokens = value["body_tokens"]?.intValue
            else { continue }
            result[path] = Entry(
                key: ScanCache.FileKey(size: size, modificationNanoseconds: modified, inode: UInt64(bitPattern: inode)),
                frontmatter: value["frontmatter"]?.objectValue, problems: problems.compactMap(\.stringValue),
                bodyLines: Int(lines), bodyTokens: Int(tokens))
        }
        return result
    }

    /// Replaces the stored entries with `entries` under the lock.
    func store(_ entries: [String: Entry]) throws(HostError) {
        try Posix.makeDirectories(Posix.directoryName(of: file))
        let lock = try Posix.lockExclusively(file + ".lock")
        defer { Posix.unlock(lock) }
        var object = JSONObject()
        for path in entries.keys.sorted() {
            let entry = entries[path]!
            object[path] = [
                "size": .int(entry.key.size), "mtime_ns": .int(entry.key.modificationNanoseconds),
                "inode": .int(Int64(bitPattern: entry.key.inode)),
                "frontmatter": entry.frontmatter.map(JSONValue.object) ?? .null,
                "problems": .array(entry.problems.map(JSONValue.string)),
                "body_lines": .int(Int64(entry.bodyLines)), "body_tokens": .int(Int64(entry.bodyTokens)),
            ]
        }
        let document: JSONValue = ["version": 1, "entries": .object(object)]
        try Posix.writeFileAtomically(file, bytes: Array(document.serialized().utf8))
    }
}
