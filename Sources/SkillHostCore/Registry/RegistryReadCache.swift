import Synchronization

/// The registry as this process last parsed it, by file: a read whose bytes are the same as the last read's
/// returns that registry instead of parsing and checking the file again. A command reads the registry several
/// times (the catalog, the MCP servers, the trust policy, the history's retention), and `skillhost call`
/// paid each parse (issue #28's `call` row). The file is still read every time, so a change is always seen,
/// however close in time to the last read (a file's modification time alone would not tell).
final class RegistryReadCache: Sendable {
    /// The one cache of the process.
    static let shared = RegistryReadCache()

    /// How many files' registries are kept at once.
    static let maximumFiles = 8

    private let last = Mutex<[String: (bytes: [UInt8], registry: Registry)]>([:])

    /// The registry parsed from `bytes` of the file at `path`: the last one when the bytes are the same,
    /// else `parse(bytes)`, kept for the next read (a throw keeps nothing).
    func registry(
        at path: String, bytes: [UInt8], parse: ([UInt8]) throws(HostError) -> Registry
    ) throws(HostError) -> Registry {
        if let known = last.withLock({ $0[path] }), known.bytes == bytes { return known.registry }
        let registry = try parse(bytes)
        last.withLock { last in
            // A process reads one or two registries; one that reads many (tests) keeps the latest few.
            if last.count >= Self.maximumFiles, last[path] == nil { last.removeAll() }
            last[path] = (bytes, registry)
        }
        return registry
    }
}
