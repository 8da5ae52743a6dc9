import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// Worker crash history per plugin, persisted in the cache folder (`<cache>/plugin_health.json`) so that
/// repeated crashes count across `skillhost call` processes and a plugin marked broken stays broken.
///
/// ```json
/// {"version": 1, "plugins": {"hostile": {"path": "/…/libhostile.so", "size": 16384, "mtime_ns": 1764…,
///   "consecutive_crashes": 5, "last_crash": "plugin hostile crashed: signal 11 (…) in skill hostile.segv",
///   "broken": true}}}
/// ```
/// An entry counts only while the plugin file keeps the recorded path, size and modification time: replacing
/// the file (a fixed build) starts it over. `list` shows ``brokenReason(pluginID:path:)``. Written under an
/// exclusive lock on `plugin_health.json.lock`, atomically (temp + fsync + rename). Thread-safe.
public struct PluginHealthStore: Sendable {
    /// The file name inside the cache folder.
    public static let fileName = "plugin_health.json"

    /// Path of the JSON file.
    public let path: String

    /// The store in `cacheDirectory`.
    public init(cacheDirectory: String) {
        path = cacheDirectory + "/" + Self.fileName
    }

    /// One plugin's record.
    public struct Record: Sendable, Equatable {
        /// Crashes since the last successful call.
        public var consecutiveCrashes: Int
        /// The last crash message.
        public var lastCrash: String
        /// Whether the plugin is refused until its file changes or ``clear(pluginID:)`` runs.
        public var broken: Bool
    }

    /// The record of `pluginID`, when one exists for the file at `pluginPath` as it is now.
    public func record(pluginID: String, path pluginPath: String) -> Record? {
        guard let entry = (try? load())?["plugins"]?[pluginID], let identity = Self.identity(of: pluginPath),
            Self.matches(entry, path: pluginPath, identity: identity)
        else { return nil }
        return Record(
            consecutiveCrashes: Int(entry["consecutive_crashes"]?.intValue ?? 0),
            lastCrash: entry["last_crash"]?.stringValue ?? "", broken: entry["broken"]?.boolValue ?? false)
    }

    /// Why `pluginID` is marked broken, or nil when it is not (or its file changed since).
    public func brokenReason(pluginID: String, path pluginPath: String) -> String? {
        guard let record = record(pluginID: pluginID, path: pluginPath), record.broken else { return nil }
        return "crashed \(record.consecutiveCrashes) times in a row; last: \(record.lastCrash)"
    }

    /// Counts one crash; marks the plugin broken once `limit` crashes happened in a row. The count is read
    /// and written under the lock, so crashes in several processes at once all count. Returns the record.
    @discardableResult
    public func recordCrash(pluginID: String, path pluginPath: String, message: String, limit: Int) throws(HostError)
        -> Record
    {
        var record = Record(consecutiveCrashes: 1, lastCrash: message, broken: limit <= 1)
        try update(pluginID: pluginID) { before in
            guard let identity = Self.identity(of: pluginPath) else { return nil }
            if let before, Self.matches(before, path: pluginPath, identity: identity) {
                record.consecutiveCrashes = Int(before["consecutive_crashes"]?.intValue ?? 0) + 1
                record.broken = record.consecutiveCrashes >= limit
            }
            return [
                "path": .string(pluginPath), "size": .int(identity.size), "mtime_ns": .int(identity.modified),
                "consecutive_crashes": .int(Int64(record.consecutiveCrashes)), "last_crash": .string(message),
                "broken": .bool(record.broken),
            ]
        }
        return record
    }

    /// Forgets the crashes of `pluginID` (after a successful call, or when the user resets it).
    public func clear(pluginID: String) throws(HostError) {
        try update(pluginID: pluginID) { _ in nil }
    }

    /// Reads, changes and writes back one entry under the lock; `change` returns the new entry or nil to
    /// remove it. A file that does not parse is replaced (it is a cache, not user state).
    private func update(pluginID: String, _ change: (JSONValue?) -> JSONValue?) throws(HostError) {
        let lock = try Posix.lockExclusively(path + ".lock")
        defer { Posix.unlock(lock) }
        var root: JSONObject = (try? load())?.objectValue ?? [:]
        var plugins = root["plugins"]?.objectValue ?? [:]
        let before = plugins[pluginID]
        let after = change(before)
        if before == after { return }
        plugins[pluginID] = after
        root["version"] = 1
        root["plugins"] = .object(plugins)
        try Posix.writeFileAtomically(path, bytes: JSONValue.object(root).serializedBytes(options: [.prettyPrinted]))
    }

    private func load() throws -> JSONValue? {
        guard Posix.exists(path) else { return nil }
        return try JSONValue(parsing: Posix.readFile(atPath: path))
    }

    /// Whether a stored entry describes the file as it is now.
    private static func matches(_ entry: JSONValue, path: String, identity: (size: Int64, modified: Int64)) -> Bool {
        entry["path"]?.stringValue == path && entry["size"]?.intValue == identity.size
            && entry["mtime_ns"]?.intValue == identity.modified
    }

    private static func identity(of path: String) -> (size: Int64, modified: Int64)? {
        guard let status = try? Posix.status(ofPath: path) else { return nil }
        return (status.size, status.modificationNanoseconds)
    }
}
