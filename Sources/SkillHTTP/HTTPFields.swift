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
        /// ``HTTPFields/key(of:)`` of the name when the field was added (look-ups compare it before the name).
        let key: UInt64

        init(name: String, value: String, key: UInt64) {
            self.name = name
            self.value = value
            self.key = key
        }

        init(name: String, value: String) { self.init(name: name, value: value, key: HTTPFields.key(of: name)) }

        /// Names and values (the key follows from the name).
        public static func == (lhs: Field, rhs: Field) -> Bool { lhs.name == rhs.name && lhs.value == rhs.value }
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
        let key = Self.key(of: name)
        var joined: String?
        for field in fields where field.key == key && Self.names(field.name, name) {
            joined = joined.map { $0 + ", " + field.value } ?? field.value
        }
        return joined
    }

    /// How many lines name `name`.
    public func count(of name: String) -> Int {
        let key = Self.key(of: name)
        var count = 0
        for field in fields where field.key == key && Self.names(field.name, name) { count += 1 }
        return count
    }

    /// A name's look-up key: its length and its first and last eight bytes with bit 5 set (which makes ASCII
    /// letters lowercase), mixed: names equal without case have equal keys, and most different names differ
    /// in the key (a look-up compares keys, one integer per field, and only the names whose keys match).
    static func key(of name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { key(of: $0) }
    }

    /// ``key(of:)`` of a name's bytes.
    static func key(of name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = name.count
        guard let base = name.baseAddress, count > 0 else { return 0 }
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if count >= 8 {
            head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
            tail = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            for index in 0..<count { head |= UInt64(base[index]) << UInt64(8 * index) }
        }
        let fold: UInt64 = 0x2020_2020_2020_2020
        return (((head | fold) &* 0x9E37_79B9_7F4A_7C15) ^ ((tail | fold) &* 0xC2B2_AE3D_27D4_EB4F)) &+ UInt64(count)
    }

    /// Whether the lowercased field name `stored` is `name` in any ASCII case (a length check first: most
    /// names differ in length; then the bytes, without making a lowercased copy of `name`).
    static func names(_ stored: String, _ name: String) -> Bool {
        // The server's look-ups name fields in lowercase, as they are stored: equal strings compare at once.
        if stored == name { return true }
        guard stored.utf8.count == name.utf8.count else { return false }
        var stored = stored, name = name
        return stored.withUTF8 { a in name.withUTF8 { b in Self.lowercase(b, is: a) } }
    }

    /// Whether `bytes` in ASCII lowercase are `lowercase`.
    private static func lowercase(_ bytes: UnsafeBufferPointer<UInt8>, is lowercase: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == lowercase.count, let a = lowercase.baseAddress, let b = bytes.baseAddress else { return bytes.count == lowercase.count }
        for index in 0..<bytes.count {
            let byte = b[index]
            if a[index] != (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) { return false }
        }
        return true
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
        try line.withUnsafeBufferPointer { (bytes) throws(Malformed) in try append(line: bytes) }
    }

    /// ``append(line:)`` over the bytes in place (the server's parser reads the head where it arrived).
    mutating func append(line: UnsafeBufferPointer<UInt8>) throws(Malformed) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon != 0 else {
            throw Malformed(description: "bad header line '\(Self.printable(Array(line)[...]))': no field name before a colon")
        }
        var upper = false
        for index in 0..<colon {
            let byte = line[index]
            guard Self.isTokenByte(byte) else {
                throw Malformed(description: "bad header line '\(Self.printable(Array(line)[...]))': the field name is not a token (no spaces before the colon)")
            }
            if byte >= 0x41 && byte <= 0x5A { upper = true }
        }
        var start = colon + 1
        var end = line.count
        for index in start..<end where line[index] == 0 || line[index] == 0x0A || line[index] == 0x0D {
            _ = index
            throw Malformed(description: "bad header line '\(Self.printable(Array(line)[...]))': the value holds a CR, LF or NUL")
        }
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        let name = UnsafeBufferPointer(rebasing: line[0..<colon])
        let key = Self.key(of: name)
        // A long name most requests carry is shared, not made again (a name of up to 15 bytes is a small
        // string: made without an allocation, cheaper than the search); another is lowercased as it is decoded.
        let lowered = (colon > 15 ? Self.commonName(name, key: key) : nil) ?? (upper
            ? String(unsafeUninitializedCapacity: colon) { buffer in
                for index in 0..<colon {
                    let byte = name[index]
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return colon
            }
            : String(decoding: name, as: UTF8.self))
        fields.append(Field(name: lowered, value: String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self), key: key))
    }

    /// Field names longer than 15 bytes that many requests carry (lowercase).
    private static let commonNames = ["mcp-protocol-version", "transfer-encoding"]

    /// ``commonNames``' keys, in raw memory made once (searched for every field line: no reference counting).
    nonisolated(unsafe) private static let commonKeys: UnsafeBufferPointer<UInt64> = {
        let keys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: commonNames.count)
        _ = keys.initialize(from: commonNames.map { key(of: $0) })
        return UnsafeBufferPointer(keys)
    }()

    /// The shared string of a common field name whose bytes (any case) are `name` and whose key is `key`.
    private static func commonName(_ name: UnsafeBufferPointer<UInt8>, key: UInt64) -> String? {
        let keys = commonKeys
        for position in 0..<keys.count where keys[position] == key {
            var known = commonNames[position]
            if known.withUTF8({ lowercase(name, is: $0) }) { return known }
        }
        return nil
    }

    /// `name` in lowercase (without a copy when it is lowercase ASCII already, as the server's look-ups are).
    static func lowercase(_ name: String) -> String {
        for byte in name.utf8 where byte >= 0x41 && byte <= 0x5A || byte >= 0x80 { return name.lowercased() }
        return name
    }

    /// RFC 9110 `tchar`.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Room for `count` fields (a parser that knows how many lines come).
    mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

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
