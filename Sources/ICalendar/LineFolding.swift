#if canImport(Glibc)
    import Glibc
#endif

/// Line unfolding (reading) and folding (writing) of iCalendar content lines (RFC 5545 section 3.1).
public enum LineFolding {
    /// One logical content line and the physical line it starts on (1-based).
    public struct LogicalLine: Sendable, Equatable {
        /// The unfolded text.
        public var text: String
        /// The physical line it starts on (1-based).
        public var line: Int
        /// The physical lines as they were folded, joined by CRLF (no trailing CRLF).
        public var folded: String
    }

    /// Splits `text` into logical lines: CRLF or bare LF end a physical line, and a physical line that
    /// starts with a space or a tab continues the previous one (the one whitespace character is removed).
    /// Blank lines and a leading byte-order mark are ignored.
    public static func unfold(_ text: String) -> [LogicalLine] {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var result: [LogicalLine] = []
        var current: [UInt8] = []
        var raw: [UInt8] = []
        var currentLine = 0
        var lineNumber = 0
        var start = 0
        func flush() {
            if currentLine > 0, !current.isEmpty {
                result.append(
                    LogicalLine(
                        text: String(decoding: current, as: UTF8.self), line: currentLine,
                        folded: String(decoding: raw, as: UTF8.self)))
            }
            current = []
            raw = []
            currentLine = 0
        }
        while start < bytes.count {
            let end = bytes.withUnsafeBufferPointer { buffer in
                memchr(buffer.baseAddress! + start, 0x0A, buffer.count - start).map {
                    buffer.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                } ?? buffer.count
            }
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lineNumber += 1
            let physical = bytes[start..<lineEnd]
            if let first = physical.first, first == 0x20 || first == 0x09, currentLine > 0 {
                current.append(contentsOf: physical.dropFirst())
                raw.append(contentsOf: [0x0D, 0x0A])
                raw.append(contentsOf: physical)
            } else if !physical.isEmpty {
                flush()
                current = Array(physical)
                raw = Array(physical)
                currentLine = lineNumber
            }
            start = end + 1
        }
        flush()
        return result
    }

    /// Folds one logical line into physical lines of at most `limit` octets (75 by default) joined by CRLF,
    /// each continuation starting with one space. Never splits a UTF-8 sequence. No trailing CRLF.
    public static func fold(_ line: String, limit: Int = 75) -> String {
        let bytes = Array(line.utf8)
        if bytes.count <= limit { return line }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / limit * 3 + 3)
        var index = 0
        var room = limit
        while index < bytes.count {
            var end = min(index + room, bytes.count)
            // Back off so the chunk never ends inside a multi-byte sequence (continuation bytes are 10xxxxxx).
            while end < bytes.count, end > index, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if end == index { end = min(index + room, bytes.count) }
            if index > 0 { output.append(contentsOf: [0x0D, 0x0A, 0x20]) }
            output.append(contentsOf: bytes[index..<end])
            index = end
            room = limit - 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
