/// A failure to parse JSON text, with the place it happened.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public var reason: String
    /// 1-based line of the fault.
    public var line: Int
    /// 1-based column (in bytes) of the fault.
    public var column: Int
    /// 0-based byte offset of the fault.
    public var offset: Int

    public var description: String { "line \(line), column \(column): \(reason)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects the parser accepts; deeper input is rejected, not recursed.
    public static let maximumParseDepth = 512

    /// Parses RFC 8259 JSON text (UTF-8). Rejects trailing content, comments, NaN and invalid UTF-8.
    /// - Throws: ``JSONParseError`` naming line and column.
    public init<Bytes: Collection>(parsing bytes: Bytes) throws(JSONParseError) where Bytes.Element == UInt8 {
        try self.init(parsing: bytes, sharing: nil)
    }

    /// Parses RFC 8259 JSON text (UTF-8) as the parse without a table does; strings equal to one of `shared`
    /// are that string (the same value, made for less: see ``JSONSharedStrings``).
    /// - Throws: ``JSONParseError`` naming line and column.
    public init<Bytes: Collection>(parsing bytes: Bytes, sharing shared: JSONSharedStrings?) throws(JSONParseError) where Bytes.Element == UInt8 {
        let result: Result<JSONValue, JSONParseError> =
            bytes.withContiguousStorageIfAvailable { buffer in
                var parser = JSONParser(buffer, shared: shared)
                return Result { () throws(JSONParseError) in try parser.parseDocument() }
            } ?? Array(bytes).withUnsafeBufferPointer { buffer in
                var parser = JSONParser(buffer, shared: shared)
                return Result { () throws(JSONParseError) in try parser.parseDocument() }
            }
        withExtendedLifetime(shared) {}
        self = try result.get()
    }

    /// Parses the one JSON value that starts at `index` in `bytes` (a value inside a larger text, nested
    /// `enclosingLevels` deep in it: the depth limit counts those levels, as parsing the whole text would) and
    /// moves `index` past it; what follows is not looked at. Used to read a member's value in place, without
    /// finding its end first. On a throw `index` is unchanged.
    /// - Throws: ``JSONParseError`` (its offset within `bytes`).
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, enclosingLevels: Int, sharing shared: JSONSharedStrings?
    ) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes, shared: shared)
        parser.index = index
        parser.depth = enclosingLevels
        let value = try parser.parseValue()
        withExtendedLifetime(shared) {}
        index = parser.index
        return value
    }

    /// Parses JSON text.
    /// - Throws: ``JSONParseError`` naming line and column.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            var parser = JSONParser(buffer)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        self = try result.get()
    }
}

/// A recursive-descent parser over a UTF-8 buffer.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The shared strings' table (its owner outlives the parse: the caller holds it).
    private let shared: JSONSharedStrings.Lookup?
    fileprivate var index = 0
    fileprivate var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, shared: JSONSharedStrings? = nil) {
        self.bytes = bytes
        self.shared = shared?.lookup
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected content after the JSON value") }
        return value
    }

    fileprivate mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumParseDepth {
            throw error("nesting deeper than \(JSONValue.maximumParseDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        // Room for a few members at once: most objects a call carries have one to four (no regrowth).
        var object = JSONObject(minimumCapacity: 4)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the member name \"\(key)\"") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(object)
            default: throw error("expected ',' or '}' after an object member")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(array)
            default: throw error("expected ',' or ']' after an array element")
            }
        }
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash, below 0x20 or above 0x7F (exact:
    /// the standard has-zero-byte and has-less-than tests, which have no false answers about *whether*).
    @inline(__always)
    static func needsALook(_ word: UInt64) -> Bool {
        needsAnEscape(word) || word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether any of the eight bytes in `word` must be escaped in a JSON string: a quote, a backslash or
    /// below 0x20 (exact, as ``needsALook(_:)``). The writer copies words without one whole.
    @inline(__always)
    static func needsAnEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let backslash = hasZeroByte(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return (quote | backslash | control) != 0
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes (read through locals: the loop runs for every byte of every string).
        var bits: UInt8 = 0
        var position = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            // Eight bytes at a time while none needs a look (a quote, a backslash, a control character, a
            // non-ASCII byte); the loop below reads the rest byte by byte.
            while count - position >= 8 {
                let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                if Self.needsALook(word) { break }
                position += 8
            }
            while position < count {
                let byte = base[position]
                if byte == UInt8(ascii: "\""), bits < 0x80 {
                    index = position + 1
                    let slice = UnsafeBufferPointer(start: base + start, count: position - start)
                    if let shared, let string = shared.string(for: slice) { return string }
                    return String(decoding: slice, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                bits |= byte
                position += 1
            }
        }
        index = position
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // ASCII needs no validation (and `String(validating:)` is generic, so slow per call).
                if bits < 0x80 {
                    if let shared, let string = shared.string(for: slice) { return string }
                    return String(decoding: slice, as: UTF8.self)
                }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    index = start
                    throw error("invalid UTF-8 in a string")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape in a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("a high surrogate \\u escape must be followed by a low surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("a lone low surrogate \\u escape")
                    }
                    scalars.append(contentsOf: Array(String(Unicode.Scalar(code)!).utf8))
                default: throw error("invalid escape '\\\(describe(escape))' in a string")
                }
            default:
                if byte < 0x20 { throw error("control character \(describe(byte)) must be escaped in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit in a number") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error("a number must not have leading zeros") }
        } else {
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit after the decimal point") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number \(text) is out of range")
        }
        return .double(value)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input in '\(literal)'") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal, expected '\(literal)'")
        }
        index += count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16))"
    }

    private func error(_ reason: String) -> JSONParseError {
        var line = 1
        var lineStart = 0
        let end = Swift.min(index, bytes.count)
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONParseError(reason: reason, line: line, column: end - lineStart + 1, offset: end)
    }
}
