/// The entries of a zip archive (stored and deflated entries; CRC-32 checked), read with limits so a hostile
/// archive cannot exhaust memory or write outside the folder it is unpacked into: what an instruction
/// skill's `.zip` / `.skill` (``SkillArchive``) and a plugin package's `.skillpkg` (``PluginPackage``) are.
///
/// Every refusal is one line: the archive's name, what is wrong with which entry, and how to make it right.
/// An entry's size is checked against the limits as its headers claim it, before any byte is inflated.
struct ZipArchive {
    /// One file of the archive.
    struct Entry: Equatable {
        /// Its path inside the archive (`/`-separated, relative, no `..`).
        var path: String
        var bytes: [UInt8]
    }

    /// What an archive may hold, and how its messages speak of it.
    struct Limits {
        /// Most entries accepted.
        var maximumEntries: Int
        /// Most bytes all entries may inflate to together.
        var maximumTotalSize: Int
        /// Most bytes one entry may inflate to.
        var maximumEntrySize: Int
        /// What the archive unpacks into, for the message about an entry that would leave it ("the skill folder").
        var destination: String
        /// How to make a good archive, ending every refusal ("make it with 'zip -r'").
        var remedy: String
    }

    /// The files of the archive, in central directory order (folder entries and `__MACOSX/` resource forks
    /// skipped).
    var entries: [Entry] = []

    /// Reads `data`, the whole archive.
    /// - Throws: `HostError` `invalidPlugin` with what is wrong.
    init(data: [UInt8], name: String, limits: Limits) throws(HostError) {
        func fail(_ reason: String) -> HostError {
            HostError(.invalidPlugin, "\(name): not a readable zip archive (\(reason)); \(limits.remedy)")
        }
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard data.count >= 22 else { throw fail("too short") }
        var end = data.count - 22
        let lowest = max(0, data.count - 22 - 65535)
        while end >= lowest, u32(end) != 0x0605_4B50 { end -= 1 }
        guard end >= lowest else { throw fail("no end of central directory") }
        let count = u16(end + 10)
        var position = u32(end + 16)
        guard count <= limits.maximumEntries else { throw fail("more than \(limits.maximumEntries) entries") }
        var total = 0
        var seen: Set<String> = []
        for _ in 0..<count {
            guard position + 46 <= data.count, u32(position) == 0x0201_4B50 else { throw fail("bad central directory") }
            let method = u16(position + 10)
            let crc = UInt32(u32(position + 16))
            let compressedSize = u32(position + 20)
            let size = u32(position + 24)
            let nameLength = u16(position + 28)
            let extraLength = u16(position + 30)
            let commentLength = u16(position + 32)
            let externalAttributes = u32(position + 38)
            let localOffset = u32(position + 42)
            guard position + 46 + nameLength <= data.count else { throw fail("bad central directory") }
            let path = String(decoding: data[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            position += 46 + nameLength + extraLength + commentLength
            if path.hasSuffix("/") || path.hasPrefix("__MACOSX/") { continue }
            try Self.checkPath(path, destination: limits.destination, fail: fail)
            guard seen.insert(path).inserted else { throw fail("entry \"\(path)\" appears twice") }
            if (externalAttributes >> 16) & 0o170000 == 0o120000 {
                throw fail("\(path) is a symbolic link; archive the file itself")
            }
            // 0xFFFFFFFF says the real size is in a ZIP64 extra field: 4 GiB or more, past any limit here.
            guard size != 0xFFFF_FFFF, compressedSize != 0xFFFF_FFFF, localOffset != 0xFFFF_FFFF else {
                throw fail("entry \(path) has ZIP64 sizes (4 GiB or more), more than the \(Self.megabytes(limits.maximumEntrySize)) an entry may hold")
            }
            guard size <= limits.maximumEntrySize else {
                throw fail("entry \(path) claims \(size) bytes unpacked, more than the \(Self.megabytes(limits.maximumEntrySize)) an entry may hold")
            }
            total += size
            guard total <= limits.maximumTotalSize else {
                throw fail("more than \(Self.megabytes(limits.maximumTotalSize)) unpacked (at entry \(path))")
            }
            guard localOffset + 30 <= data.count, u32(localOffset) == 0x0403_4B50 else { throw fail("bad local header of \(path)") }
            let start = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28)
            guard start + compressedSize <= data.count else { throw fail("\(path) is truncated") }
            let raw = Array(data[start..<(start + compressedSize)])
            let bytes: [UInt8]
            switch method {
            case 0: bytes = raw
            case 8:
                do { bytes = try Inflate.decompress(raw, limit: size) } catch { throw fail("\(path): \(error.reason)") }
            default: throw fail("\(path) uses compression method \(method); only stored and deflate are read")
            }
            guard bytes.count == size, CRC32.checksum(bytes) == crc else { throw fail("\(path) fails its CRC check") }
            entries.append(Entry(path: path, bytes: bytes))
        }
    }

    /// The entry at `path`, if any.
    func entry(_ path: String) -> Entry? { entries.first { $0.path == path } }

    /// Refuses a path that would leave the folder it is unpacked into: absolute, `..`, `.`, empty segments,
    /// backslashes, NUL.
    static func checkPath(_ path: String, destination: String, fail: (String) -> HostError) throws(HostError) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if path.hasPrefix("/") || path.contains("\\") || path.contains("\u{0}") || segments.contains("..")
            || segments.contains("") || segments.contains(".")
        {
            throw fail("entry \"\(path)\" would land outside \(destination)")
        }
    }

    /// "64 MiB".
    static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MiB" }
}

/// The limits of an instruction skill's `.zip` / `.skill` archive (`skillhost add`).
enum SkillArchive {
    static let limits = ZipArchive.Limits(
        maximumEntries: 5000, maximumTotalSize: 64 << 20, maximumEntrySize: 64 << 20, destination: "the skill folder",
        remedy: "make it with 'zip -r'")

    /// Reads a skill archive.
    static func read(data: [UInt8], name: String) throws(HostError) -> ZipArchive {
        try ZipArchive(data: data, name: name, limits: limits)
    }
}

/// CRC-32 (IEEE 802.3), as zip uses it.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
