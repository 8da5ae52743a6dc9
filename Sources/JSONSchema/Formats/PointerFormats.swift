/// `json-pointer`, `relative-json-pointer` and `regex`.
enum PointerFormats {
    /// RFC 6901: empty, or "/"-separated tokens where "~" is only followed by "0" or "1".
    static func isJSONPointer(_ text: String) -> Bool {
        guard text.isEmpty || text.hasPrefix("/") else { return false }
        var afterTilde = false
        for byte in text.utf8 {
            if afterTilde {
                guard byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else { return false }
                afterTilde = false
            } else if byte == UInt8(ascii: "~") {
                afterTilde = true
            }
        }
        return !afterTilde
    }

    /// draft-handrews-relative-json-pointer: a non-negative integer (no leading zeros), an optional
    /// index adjustment (`+n`/`-n`), then "#" or a JSON pointer.
    static func isRelativeJSONPointer(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        guard index > 0, !(index > 1 && bytes[0] == 0x30) else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > start, !(index - start > 1 && bytes[start] == 0x30) else { return false }
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        return rest == "#" || isJSONPointer(rest)
    }

    /// An ECMA-262 regular expression (unicode mode) that compiles.
    static func isRegex(_ text: String) -> Bool { (try? ECMARegex(text)) != nil }
}
