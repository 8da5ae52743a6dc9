import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// The process environment as a dictionary, read from `environ` (the first of a repeated name wins, as
    /// `getenv` does). Cheaper at start-up than Foundation's `ProcessInfo`, whose first use costs a
    /// `skillhost` process about a millisecond (issue #9). Entries are split as bytes (a `Character` walk over
    /// every entry cost about 400,000 instructions per read), and a `skillhost call` reads it eight times:
    /// while the entries' bytes are those of the last read, that read's dictionary is returned (comparing the
    /// bytes costs a few thousand instructions; building the dictionary about a hundred thousand).
    package static func environment() -> [String: String] { environment(of: environ) }

    /// The variables of `entries` (`NAME=value` strings up to a null pointer, as `environ` holds them).
    package static func environment(of entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        // One copy of every entry with its NUL: what is compared, and what the dictionary is made from.
        var text: [UInt8] = []
        text.reserveCapacity(4096)
        var index = 0
        while let entry = entries[index] {
            index += 1
            text.append(contentsOf: UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry) + 1))
        }
        if let known = lastEnvironment.withLock({ $0 }), known.text == text { return known.values }
        var values: [String: String] = [:]
        text.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
                let entry = UnsafeBufferPointer(rebasing: bytes[start..<end])
                start = end + 1
                guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = String(decoding: UnsafeBufferPointer(rebasing: entry[..<equals]), as: UTF8.self)
                if values[name] == nil {
                    values[name] = String(decoding: UnsafeBufferPointer(rebasing: entry[(equals + 1)...]), as: UTF8.self)
                }
            }
        }
        lastEnvironment.withLock { $0 = (text, values) }
        return values
    }

    /// The bytes of the last read's entries (each with its NUL) and the dictionary made from them.
    private static let lastEnvironment = Mutex<(text: [UInt8], values: [String: String])?>(nil)

    /// The path of this process's executable (`/proc/self/exe`), or nil when it cannot be read.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
