/// The header fields of an HTTP/1.1 message (RFC 9110 §5, RFC 9112 §5), as the client's response parser and
/// the server's request parser read them: one rule for both. A field line is `name ":" OWS value OWS`; the
/// name is a token (no space before the colon), the value holds no CR, LF or NUL; names compare without case.
/// Fields keep their order, so a repeated field stays visible (a server refuses a repeated routing header).
public struct HTTPFields: Sendable, Equatable {
    /// One field line.
    public struct Field: Sendable, Equatable {
        /// The name, lowercased.
        public var name: String
        /// The value without leading and trailing spaces and tabs.
        public var value: String
    }

    /// Every field, in the order sent.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// These fields (names are lowercased).
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0.lowercased(), value: $0.1) }
    }

    /// The value of `name` (any case); repeated fields joined with ", " (RFC 9110 §5.3).
    public subscript(name: String) -> String? {
        let key = Self.lowercase(name)
        var joined: String?
        for field in fields where field.name == key {
            joined = joined.map { $0 + ", " + field.value } ?? field.value
        }
        return joined
    }

    /// How many lines name `name`.
    public func count(of name: String) -> Int {
        let key = Self.lowercase(name)
        return fields.reduce(0) { $0 + ($1.name == key ? 1 : 0) }
    }

    /// Adds a field.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: Self.lowercase(name), value: value))
    }

    /// The fields as a dictionary of lowercased names, repeated fields joined with ", ".
    public var joined: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            if let earlier = result[field.name] { result[field.name] = earlier + ", " + field.value } else { result[field.name] = field.value }
        }
        return result
    }

    /// Why a field line is not one.
    public struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads the field lines of a head (each without its CRLF).
    public static func parse<Lines: Sequence>(lines: Lines) throws(Malformed) -> HTTPFields where Lines.Element == Substring {
        var result = HTTPFields()
        for line in lines { try result.append(line: Array(line.utf8)[...]) }
        return result
    }

    /// Adds one field line's bytes (without its CRLF), checked as ``parse(lines:)`` checks it.
    public mutating func append(line: ArraySlice<UInt8>) throws(Malformed) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon != line.startIndex else {
            throw Malformed(description: "bad header line '\(Self.printable(line))': no field name before a colon")
        }
        let name = line[..<colon]
        guard name.allSatisfy(Self.isTokenByte) else {
            throw Malformed(description: "bad header line '\(Self.printable(line))': the field name is not a token (no spaces before the colon)")
        }
        var value = line[(colon + 1)...]
        guard !value.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
            throw Malformed(description: "bad header line '\(Self.printable(line))': the value holds a CR, LF or NUL")
        }
        while let first = value.first, first == 0x20 || first == 0x09 { value.removeFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value.removeLast() }
        // The name lowercased as it is decoded (no copy of its bytes first).
        let lowered = String(unsafeUninitializedCapacity: name.count) { buffer in
            for (offset, byte) in name.enumerated() { buffer[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
            return name.count
        }
        fields.append(Field(name: lowered, value: String(decoding: value, as: UTF8.self)))
    }

    /// Room for `count` fields (a parser that knows how many lines come).
    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// `name` in lowercase (without a copy when it is lowercase ASCII already, as the server's look-ups are).
    static func lowercase(_ name: String) -> String {
        name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 } ? name.lowercased() : name
    }

    /// RFC 9110 `tchar`.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Whether `text` is a non-empty token.
    public static func isToken(_ text: some StringProtocol) -> Bool { !text.isEmpty && text.utf8.allSatisfy(isTokenByte) }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    public static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }

    /// The start of a line for an error message, control characters shown as `?`.
    static func printable(_ line: Substring) -> String {
        String(line.prefix(60).map { $0.isASCII && ($0.asciiValue ?? 0) >= 0x20 && $0 != "\u{7F}" ? $0 : "?" })
    }

    /// The start of a line's bytes for an error message, bytes outside printable ASCII shown as `?`.
    static func printable(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.prefix(60).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
