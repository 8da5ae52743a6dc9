import SkillJSON

/// A `tools/call` request read straight from its line, without building the message's outer object or the
/// params object: the per-call shortcut of ``MCPServer/receive(_:)`` (decoding the whole line with
/// ``JSONRPCMessage/init(line:)`` costs about 11k instructions per call, a seventh of the server's work for a
/// trivial skill).
///
/// The shortcut takes only the plain shape clients send: one object whose members are exactly
/// `"jsonrpc": "2.0"`, `"id"` (an integer, or a string of printable ASCII without escapes), `"method":
/// "tools/call"` and `"params"`, each once, in any order, with JSON whitespace anywhere; `params` holds
/// `"name"` (printable ASCII without escapes) and optionally `"arguments"` and `"_meta"` (objects, decoded by
/// the general parser: `_meta` carries the 2026-07-28 revision's per-request version and capabilities, so a
/// stateless request takes the shortcut too), each once. Anything else (another member such as an approval's
/// `requestState`, an escape in a name, a duplicate, an object the parser rejects or nested too deep) is not
/// recognized here, and the line goes to ``JSONRPCMessage/init(line:)``, which decodes it or says what is
/// wrong. So for every line this recognizes, ``JSONRPCMessage/init(line:)`` returns `.request(id:method:
/// "tools/call", params:)` with the same id, and params with the same name, arguments and `_meta` and nothing
/// else (`JSONRPCToolsCallTests` and the mcp-diff fuzz target check that on good, bad and mutated lines).
struct JSONRPCToolsCall: Equatable {
    /// The request's id.
    var id: JSONValue
    /// `params.name`.
    var name: String
    /// `params.arguments` (an object); nil when params has none.
    var arguments: JSONValue?
    /// `params._meta` (an object); nil when params has none.
    var meta: JSONValue?

    /// The request in `line`; nil when the line is not a `tools/call` request of the plain shape.
    init?(line: ArraySlice<UInt8>) {
        guard let found = line.withContiguousStorageIfAvailable({ Self.scan($0) }), let found else { return nil }
        self = found
    }

    private init(id: JSONValue, name: String, arguments: JSONValue?, meta: JSONValue?) {
        self.id = id
        self.name = name
        self.arguments = arguments
        self.meta = meta
    }

    /// The request's params as the general decoder reads them (made on demand: the shortcut's callers read
    /// the parts).
    var params: JSONValue {
        var object: JSONObject = ["name": .string(name)]
        if let arguments { object["arguments"] = arguments }
        if let meta { object["_meta"] = meta }
        return .object(object)
    }

    private enum Member: UInt8 {
        case jsonrpc = 1, id = 2, method = 4, params = 8
        static let all: UInt8 = 15
    }

    /// Moves `index` past JSON whitespace.
    private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    /// Whether the bytes at `index` are `literal` (then moves past them).
    private static func take(_ literal: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - index >= length else { return false }
        for offset in 0..<length where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += length
        return true
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONRPCToolsCall? {
        var index = 0
        let count = bytes.count
        func skipWhitespace() { Self.skipWhitespace(bytes, &index) }
        func take(_ literal: StaticString) -> Bool { Self.take(literal, bytes, &index) }
        skipWhitespace()
        guard take("{") else { return nil }
        var seen: UInt8 = 0
        var id: JSONValue?
        var params: (name: String, arguments: JSONValue?, meta: JSONValue?)?
        while true {
            skipWhitespace()
            let member: Member
            if take("\"jsonrpc\"") {
                member = .jsonrpc
            } else if take("\"id\"") {
                member = .id
            } else if take("\"method\"") {
                member = .method
            } else if take("\"params\"") {
                member = .params
            } else {
                return nil
            }
            guard seen & member.rawValue == 0 else { return nil }  // a duplicate: the general decoder decides
            seen |= member.rawValue
            skipWhitespace()
            guard take(":") else { return nil }
            skipWhitespace()
            switch member {
            case .jsonrpc:
                guard take("\"2.0\"") else { return nil }
            case .method:
                guard take("\"tools/call\"") else { return nil }
            case .id:
                guard let value = scanID(bytes, &index) else { return nil }
                id = value
            case .params:
                guard let value = scanParams(bytes, &index) else { return nil }
                params = value
            }
            skipWhitespace()
            if take(",") { continue }
            guard take("}") else { return nil }
            break
        }
        skipWhitespace()
        guard index == count, seen == Member.all, let id, let params else { return nil }
        return JSONRPCToolsCall(id: id, name: params.name, arguments: params.arguments, meta: params.meta)
    }

    /// An integer id (`-?(0|[1-9][0-9]{0,17})`: always within Int64) or a string id of printable ASCII
    /// without escapes; nil for anything else.
    private static func scanID(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> JSONValue? {
        let count = bytes.count
        guard index < count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") { return plainString(bytes, &index).map(JSONValue.string) }
        var position = index
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let digitsStart = position
        var value: Int64 = 0
        while position < count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            // A 19th digit could overflow Int64: checked before it is multiplied in (the mcp-diff fuzz target
            // found the trap with a 20-digit id).
            guard position - digitsStart < 18 else { return nil }
            value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        let digits = position - digitsStart
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent makes it another number: the general decoder decides.
        if position < count, bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: "e")
            || bytes[position] == UInt8(ascii: "E")
        {
            return nil
        }
        index = position
        return .int(negative ? -value : value)
    }

    /// A string of printable ASCII without escapes starting at `index` (its opening quote); nil otherwise.
    private static func plainString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> String? {
        let count = bytes.count
        guard index < count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < count else { return nil }
        index = end + 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The params object starting at `index`: its name, arguments and `_meta`; nil when it is not of the plain
    /// shape.
    private static func scanParams(
        _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int
    ) -> (name: String, arguments: JSONValue?, meta: JSONValue?)? {
        func skipWhitespace() { Self.skipWhitespace(bytes, &index) }
        func take(_ literal: StaticString) -> Bool { Self.take(literal, bytes, &index) }
        guard take("{") else { return nil }
        var name: String?
        var arguments: JSONValue?
        var meta: JSONValue?
        while true {
            skipWhitespace()
            if take("\"name\"") {
                guard name == nil else { return nil }
                skipWhitespace()
                guard take(":") else { return nil }
                skipWhitespace()
                guard let value = plainString(bytes, &index) else { return nil }
                name = value
            } else if take("\"arguments\"") {
                guard arguments == nil else { return nil }
                skipWhitespace()
                guard take(":") else { return nil }
                skipWhitespace()
                // Inside the message, arguments sit two levels deep (the message, params).
                guard let value = scanObject(bytes, &index, enclosingLevels: 2) else { return nil }
                arguments = value
            } else if take("\"_meta\"") {
                guard meta == nil else { return nil }
                skipWhitespace()
                guard take(":") else { return nil }
                skipWhitespace()
                guard let value = scanObject(bytes, &index, enclosingLevels: 2) else { return nil }
                meta = value
            } else {
                return nil
            }
            skipWhitespace()
            if take(",") { continue }
            guard take("}") else { return nil }
            break
        }
        guard let name else { return nil }
        return (name, arguments, meta)
    }

    /// The object starting at `index`, decoded by the general parser in place (the depth limit counting the
    /// `enclosingLevels` around it, as decoding the whole message would); nil when it is not an object or does
    /// not parse.
    private static func scanObject(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, enclosingLevels: Int) -> JSONValue? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        return try? JSONValue.parse(bytes, at: &index, enclosingLevels: enclosingLevels, sharing: JSONRPCMessage.sharedStrings)
    }
}
