#if canImport(Glibc)
import Glibc
#endif

/// The system's time-zone database: a folder of TZif files named by IANA zone ("Europe/Paris"), normally
/// `/usr/share/zoneinfo` (or `$TZDIR`), and its index of names.
public struct ZoneInfoDirectory: Sendable {
    /// The folder.
    public let path: String

    /// The folder at `path`.
    public init(path: String) { self.path = path }

    /// `$TZDIR` when it is an absolute path, else `/usr/share/zoneinfo` (as glibc does).
    public static var system: ZoneInfoDirectory {
        if let value = getenv("TZDIR"), value.pointee == UInt8(ascii: "/") {
            return ZoneInfoDirectory(path: String(cString: value))
        }
        return ZoneInfoDirectory(path: "/usr/share/zoneinfo")
    }

    /// Whether `name` can name a zone file: relative, made of letters, digits and `_+-.` between single
    /// slashes, no `.` or `..` part, and not one of the folder's files that are not zones (`posixrules`,
    /// `localtime`, the `posix/` and `right/` copies).
    public static func isZoneName(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 4 else { return false }
        for part in parts {
            guard !part.isEmpty, part.count <= 64, !part.elementsEqual(".".utf8), !part.elementsEqual("..".utf8) else { return false }
            for byte in part {
                let allowed = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte >= 0x30 && byte <= 0x39
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                guard allowed else { return false }
            }
        }
        return !["posixrules", "localtime", "posix", "right"].contains(where: { String(decoding: parts[0], as: UTF8.self) == $0 })
    }

    /// The zone named `name`, or nil when there is no such file, the name is not a zone name
    /// (``isZoneName(_:)``) or the file is not a valid TZif file.
    public func zone(named name: String) -> TZifFile? {
        guard Self.isZoneName(name), let bytes = Self.read(path + "/" + name, limit: TZifFile.maximumSize) else { return nil }
        return try? TZifFile(parsing: bytes)
    }

    /// Every zone name in the database's index (`tzdata.zi`: zones, then links, each sorted; else
    /// `zone1970.tab`/`zone.tab`), or an empty list when the folder has neither.
    public func zoneNames() -> [String] {
        if let text = Self.read(path + "/tzdata.zi", limit: 4 << 20) {
            var zones: [String] = []
            var links: [String] = []
            for line in text.split(separator: 0x0A) {
                let words = line.split(separator: 0x20)
                if words.count >= 2, words[0].elementsEqual("Z".utf8) { zones.append(String(decoding: words[1], as: UTF8.self)) }
                if words.count >= 3, words[0].elementsEqual("L".utf8) { links.append(String(decoding: words[2], as: UTF8.self)) }
            }
            return zones.sorted() + links.sorted()
        }
        var names: Set<String> = []
        for table in ["zone1970.tab", "zone.tab"] {
            guard let text = Self.read(path + "/" + table, limit: 1 << 20) else { continue }
            for line in text.split(separator: 0x0A) where line.first != UInt8(ascii: "#") {
                let fields = line.split(separator: 0x09)
                if fields.count >= 3 { names.insert(String(decoding: fields[2], as: UTF8.self)) }
            }
        }
        return names.sorted()
    }

    /// The bytes of a regular file of at most `limit` bytes; nil when it cannot be read.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else { return nil }
        return Array(bytes[..<count])
    }
}
