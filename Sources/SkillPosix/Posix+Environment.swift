#if canImport(Glibc)
import Glibc
#endif

extension Posix {
    /// The process environment as a dictionary, read from `environ` (the first of a repeated name wins, as
    /// `getenv` does). Cheaper at start-up than Foundation's `ProcessInfo`, whose first use costs a
    /// `skillhost` process about a millisecond (issue #9).
    package static func environment() -> [String: String] {
        var values: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            guard let equals = text.firstIndex(of: "=") else { continue }
            let name = String(text[..<equals])
            if values[name] == nil { values[name] = String(text[text.index(after: equals)...]) }
        }
        return values
    }

    /// The path of this process's executable (`/proc/self/exe`), or nil when it cannot be read.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
