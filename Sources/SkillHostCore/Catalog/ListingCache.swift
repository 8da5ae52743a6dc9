import StableHash

/// The output of `list` remembered with the fingerprint of everything it was made from
/// (`<cache>/list_output.cache`), so an unchanged catalog is listed without parsing the scan cache, checking
/// manifests, trust or health again (docs/listing-cache.md).
///
/// The file, all lengths in decimal ASCII:
///
/// ```
/// skillhost-listing 1\n
/// <key length>\n<key bytes>\n
/// <output length>\n<output bytes>\n
/// <FNV-1a 64 of every byte above, 16 lowercase hex digits>\n
/// ```
///
/// It is a cache: a file that is missing, truncated, of another version, or whose checksum or layout is
/// wrong is ignored (and replaced by the next store). Stores are atomic (temp + fsync + rename) under an
/// exclusive lock on `list_output.cache.lock`, and leave no temporary file behind.
public struct ListingCache: Sendable {
    /// The file name inside the cache folder.
    public static let fileName = "list_output.cache"
    /// The first line of the file; the number changes with the layout.
    static let header = Array("skillhost-listing 1\n".utf8)

    /// The cache file.
    public let file: String

    /// The cache in `directory`.
    public init(directory: String) { file = directory + "/" + Self.fileName }

    /// The output stored under exactly `key`; nil when there is none, it was made from other inputs, or
    /// the file is damaged.
    public func output(forKey key: [UInt8]) -> [UInt8]? {
        guard let bytes = try? Posix.readFile(atPath: file, limit: 256 << 20),
            let (storedKey, output) = Self.decode(bytes), storedKey == key
        else { return nil }
        return output
    }

    /// Replaces the stored output (one entry: the latest listing).
    /// - Throws: ``HostError`` of kind `io` when the cache folder cannot be written.
    public func store(_ output: [UInt8], forKey key: [UInt8]) throws(HostError) {
        let lock = try Posix.lockExclusively(file + ".lock")
        defer { Posix.unlock(lock) }
        try Posix.writeFileAtomically(file, bytes: Self.encode(key: key, output: output), mode: 0o600)
    }

    /// The file's bytes for `key` and `output`.
    static func encode(key: [UInt8], output: [UInt8]) -> [UInt8] {
        var bytes = header
        bytes.reserveCapacity(header.count + key.count + output.count + 64)
        for part in [key, output] {
            bytes += Array(String(part.count).utf8)
            bytes.append(newline)
            bytes += part
            bytes.append(newline)
        }
        bytes += Array(hex(checksum(bytes[...])).utf8)
        bytes.append(newline)
        return bytes
    }

    /// Key and output from the file's bytes; nil for anything but a whole, well-formed file.
    static func decode(_ bytes: [UInt8]) -> (key: [UInt8], output: [UInt8])? {
        guard bytes.count >= header.count + 17, bytes.starts(with: header), bytes.last == newline else { return nil }
        let body = bytes[..<(bytes.count - 17)]
        guard hex(checksum(body)) == String(decoding: bytes[(bytes.count - 17)..<(bytes.count - 1)], as: UTF8.self)
        else { return nil }
        var index = header.count
        var parts: [[UInt8]] = []
        for _ in 0..<2 {
            guard let end = body[index...].firstIndex(of: newline), end > index, end - index <= 12,
                body[index..<end].allSatisfy({ (0x30...0x39).contains($0) }),
                let count = Int(String(decoding: body[index..<end], as: UTF8.self)),
                count <= body.count - end - 2, body[end + 1 + count] == newline
            else { return nil }
            parts.append(Array(body[(end + 1)..<(end + 1 + count)]))
            index = end + 2 + count
        }
        guard index == body.count else { return nil }
        return (parts[0], parts[1])
    }

    private static let newline = UInt8(ascii: "\n")

    private static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 { FNV1a.hash64(bytes) }

    private static func hex(_ value: UInt64) -> String { FNV1a.hex(value) }
}
