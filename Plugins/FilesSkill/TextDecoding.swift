/// Detects the encoding of a file's bytes and decodes them to text; refuses binary data.
enum TextDecoding {
    /// Encodings `files.read` accepts; `auto` detects.
    static let names = ["auto", "utf-8", "utf-16le", "utf-16be", "latin-1"]

    /// Why bytes could not be read as text.
    enum Failure: Error, Equatable {
        /// A NUL byte (or another sign of binary data) at this offset within the bytes.
        case binary(offset: Int)
        /// The bytes are not valid in the requested encoding, first at this offset.
        case invalid(encoding: String, offset: Int)
    }

    /// The encoding of a file from its first bytes (`head`, up to a few KiB): a byte-order mark, then
    /// binary detection (NUL bytes), then UTF-8 validity, else Latin-1.
    /// - Returns: the encoding name and the length of its byte-order mark.
    static func detect(_ head: [UInt8]) throws(Failure) -> (encoding: String, bom: Int) {
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return ("utf-8", 3) }
        if head.starts(with: [0xFF, 0xFE]) { return ("utf-16le", 2) }
        if head.starts(with: [0xFE, 0xFF]) { return ("utf-16be", 2) }
        if let nul = head.firstIndex(of: 0) { throw .binary(offset: nul) }
        // Control characters other than tab, newline, form feed, carriage return and escape, in more than
        // 1% of the bytes, mean binary.
        let isControl = { (byte: UInt8) in byte < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(byte) }
        if let first = head.firstIndex(where: isControl), head.filter(isControl).count * 100 > head.count {
            throw .binary(offset: first)
        }
        return (firstInvalidUTF8(head, allowTruncatedEnd: true) == nil ? "utf-8" : "latin-1", 0)
    }

    /// Decodes `bytes` in `encoding`. For UTF-8 the caller has already trimmed partial sequences at the
    /// ends (see ``utf8Boundaries(_:)``).
    static func decode(_ bytes: ArraySlice<UInt8>, as encoding: String) throws(Failure) -> String {
        switch encoding {
        case "utf-8":
            if let bad = firstInvalidUTF8(Array(bytes), allowTruncatedEnd: false) {
                throw .invalid(encoding: encoding, offset: bad)
            }
            if let nul = bytes.firstIndex(of: 0) { throw .binary(offset: nul - bytes.startIndex) }
            return String(decoding: bytes, as: UTF8.self)
        case "utf-16le", "utf-16be":
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                units.append(encoding == "utf-16le" ? a | b << 8 : a << 8 | b)
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        default:
            if let nul = bytes.firstIndex(of: 0) { throw .binary(offset: nul - bytes.startIndex) }
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
    }

    /// For UTF-8 read from an arbitrary byte offset: how many leading continuation bytes to skip, and how
    /// many trailing bytes form an incomplete sequence to leave for the next read.
    static func utf8Boundaries(_ bytes: ArraySlice<UInt8>) -> (skipStart: Int, dropEnd: Int) {
        var skip = 0
        while skip < min(3, bytes.count), bytes[bytes.startIndex + skip] & 0xC0 == 0x80 { skip += 1 }
        var drop = 0
        // Look back at most 3 bytes for a lead byte whose sequence runs past the end.
        var back = 1
        while back <= min(4, bytes.count - skip) {
            let byte = bytes[bytes.endIndex - back]
            if byte & 0xC0 != 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if length > back { drop = back }
                break
            }
            back += 1
        }
        return (skip, drop)
    }

    /// The offset of the first byte that is not valid UTF-8, or nil. With `allowTruncatedEnd`, a sequence
    /// cut off by the end of the bytes counts as valid.
    static func firstInvalidUTF8(_ bytes: [UInt8], allowTruncatedEnd: Bool) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            if index + length > bytes.count {
                return allowTruncatedEnd && bytes[(index + 1)...].allSatisfy({ $0 & 0xC0 == 0x80 }) ? nil : index
            }
            for continuation in 1..<length where bytes[index + continuation] & 0xC0 != 0x80 { return index }
            // Overlong three-byte and four-byte forms, surrogates and code points past U+10FFFF.
            if length == 3 {
                let second = bytes[index + 1]
                if (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F) { return index }
            } else if length == 4 {
                let second = bytes[index + 1]
                if (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second > 0x8F) { return index }
            }
            index += length
        }
        return nil
    }
}
