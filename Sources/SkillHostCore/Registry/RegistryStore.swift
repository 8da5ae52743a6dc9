import SkillJSON

/// Reads and writes the registry file safely.
///
/// - A missing file reads as an empty registry (all defaults).
/// - A file that does not parse, or has a wrongly typed member, is an error naming line and column (or the
///   JSON pointer) and is never overwritten: ``update(_:)`` refuses to write over it.
/// - ``update(_:)`` holds an exclusive `flock` on `<file>.lock` across read, change and write, and writes
///   atomically (temp file, fsync, rename, fsync of the folder), so concurrent processes lose no update.
public struct RegistryStore: Sendable {
    /// The registry file.
    public let path: String

    /// The lock file next to it.
    public var lockPath: String { path + ".lock" }

    /// The store for the registry file at `path` (made absolute).
    public init(path: String) { self.path = Posix.absolutePath(path) }

    /// The registry as it is on disk now.
    /// - Throws: ``HostError`` of kind `registry` for a malformed file, `io` when it cannot be read.
    public func read() throws(HostError) -> Registry {
        let bytes: [UInt8]
        do {
            bytes = try Posix.readFile(atPath: path, limit: 16 << 20)
        } catch where error.kind == .notFound {
            return Registry.empty(file: path)
        }
        // Bytes read before in this process: the registry parsed then (RegistryReadCache).
        return try RegistryReadCache.shared.registry(at: path, bytes: bytes) { bytes throws(HostError) in
            let document: JSONValue
            do throws(JSONParseError) {
                document = try JSONValue(parsing: bytes)
            } catch {
                throw HostError(.registry,
                    "\(path): line \(error.line), column \(error.column): \(error.reason); fix the file by hand (it is left untouched)")
            }
            return try Registry(document: document, file: path)
        }
    }

    /// Reads, lets `body` change, and writes the registry under the lock. Nothing is written when `body`
    /// throws or changes nothing.
    /// - Throws: ``HostError``: `registry` for a malformed file, `io` for a failed write, or what `body`
    ///   threw (other errors are wrapped as `registry`).
    public func update(_ body: (inout Registry) throws -> Void) throws(HostError) {
        let lock = try Posix.lockExclusively(lockPath)
        defer { Posix.unlock(lock) }
        var registry = try read()
        let before = registry.document
        do {
            try body(&registry)
        } catch let error as HostError {
            throw error
        } catch {
            throw HostError(.registry, "\(path): \(error)")
        }
        guard registry.document != before || !Posix.exists(path) else { return }
        let text = registry.json.serialized(options: .prettyPrinted) + "\n"
        try Posix.writeFileAtomically(path, bytes: Array(text.utf8))
    }
}
