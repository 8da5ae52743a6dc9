/// One request as the server read it: the request line, the header fields and the whole body.
public struct HTTPServerRequest: Sendable {
    /// `GET`, `POST`, … (case-sensitive, RFC 9110 §9.1).
    public var method: String
    /// The request target as sent (`/mcp?x=1`).
    public var target: String
    /// `1.0` or `1.1`.
    public var minorVersion: Int
    /// The header fields.
    public var fields: HTTPFields
    /// The body (empty when none was sent).
    public var body: [UInt8]
    /// The peer's address, `host:port`.
    public var peer: String

    /// A request with these parts (tests build them directly).
    public init(method: String, target: String, minorVersion: Int = 1, fields: HTTPFields = HTTPFields(), body: [UInt8] = [], peer: String = "") {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.fields = fields
        self.body = body
        self.peer = peer
    }

    /// The target without its query.
    public var path: String {
        // `?` is ASCII: found among the UTF-8 bytes (a search by Character costs far more per request).
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<mark])
    }

    /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection: close`; HTTP/1.0
    /// only with `Connection: keep-alive`).
    public var keepsAlive: Bool {
        guard let connection = fields["connection"] else { return minorVersion >= 1 }
        let tokens = connection.lowercased().split(separator: ",").map { FieldList.trimmed($0) }
        return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }
}

/// Comma-separated field values (`Accept`, `Connection`).
public enum FieldList {
    /// The items of a list value, trimmed, empty items dropped.
    public static func items(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map(trimmed).filter { !$0.isEmpty }
    }

    static func trimmed(_ text: Substring) -> String { HTTPFields.trimmed(text) }

    /// Whether `value` starts with the lowercase ASCII `prefix`, ignoring ASCII case (`Content-Type`'s media
    /// type: `Application/JSON; charset=utf-8`), without making a lowercased copy.
    public static func hasPrefix(_ value: String, ignoringCase prefix: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        var value = value
        return value.withUTF8 { bytes in
            guard bytes.count >= wanted.count else { return false }
            for index in 0..<wanted.count {
                let byte = bytes[index]
                guard (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == wanted[index] else { return false }
            }
            return true
        }
    }

    /// Whether an `Accept` value accepts `mediaType` (`type/subtype`, `type/*`, `*/*`; a `q=0` item excludes).
    public static func accepts(_ accept: String?, _ mediaType: String) -> Bool {
        guard let accept else { return false }
        // The value MCP clients send, compared whole (its two items need no reading).
        if accept == "application/json, text/event-stream", mediaType == "application/json" || mediaType == "text/event-stream" {
            return true
        }
        // ASCII (every real client): read in place, nothing allocated per request.
        if let answer = ASCIIAccept.accepts(accept, mediaType) { return answer }
        return acceptsSpelledOut(accept, mediaType)
    }

    /// ``accepts(_:_:)`` for any text (non-ASCII values lowercase by Unicode's rules).
    package static func acceptsSpelledOut(_ accept: String, _ mediaType: String) -> Bool {
        let wanted = mediaType.lowercased()
        let type = wanted.split(separator: "/").first.map(String.init) ?? wanted
        for item in items(accept) {
            let parts = item.split(separator: ";").map { HTTPFields.trimmed($0).lowercased() }
            guard let range = parts.first else { continue }
            let excluded = parts.dropFirst().contains { parameter in
                parameter.hasPrefix("q=") && Double(HTTPFields.trimmed(parameter.dropFirst(2))) == 0
            }
            if excluded { continue }
            if range == wanted || range == "*/*" || range == type + "/*" { return true }
        }
        return false
    }
}

/// ``FieldList/accepts(_:_:)`` over the bytes of ASCII values, in place: the same items (split at `,`,
/// trimmed, empty ones dropped), parameters (split at `;`, empty pieces dropped, trimmed), ranges and
/// `q=0` exclusions, compared without case. Nil when either text is not ASCII.
enum ASCIIAccept {
    static func accepts(_ accept: String, _ mediaType: String) -> Bool? {
        var accept = accept
        var mediaType = mediaType
        return accept.withUTF8 { value in mediaType.withUTF8 { wanted in accepts(value, wanted) } }
    }

    private static func accepts(_ value: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard value.allSatisfy({ $0 < 0x80 }), wanted.allSatisfy({ $0 < 0x80 }) else { return nil }
        let slash = wanted.firstIndex(of: UInt8(ascii: "/")) ?? wanted.count
        var itemStart = 0
        while itemStart <= value.count {
            let itemEnd = value[itemStart...].firstIndex(of: UInt8(ascii: ",")) ?? value.count
            defer { itemStart = itemEnd + 1 }
            let item = trimmed(value, itemStart, itemEnd)
            guard item.lowerBound < item.upperBound else { continue }
            var range: Range<Int>?
            var excluded = false
            var partStart = item.lowerBound
            while partStart < item.upperBound {
                let partEnd = value[partStart..<item.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? item.upperBound
                defer { partStart = partEnd + 1 }
                guard partStart < partEnd else { continue }  // an empty piece (split drops it)
                let part = trimmed(value, partStart, partEnd)
                if range == nil {
                    range = part
                } else if part.count >= 2, lower(value[part.lowerBound]) == UInt8(ascii: "q"), value[part.lowerBound + 1] == UInt8(ascii: "=") {
                    let weight = trimmed(value, part.lowerBound + 2, part.upperBound)
                    if Double(String(decoding: UnsafeBufferPointer(rebasing: value[weight]), as: UTF8.self)) == 0 { excluded = true }
                }
            }
            guard let range, !excluded else { continue }
            let text = UnsafeBufferPointer(rebasing: value[range])
            if equal(text, wanted[...]) || equal(text, "*/*".utf8) { return true }
            if text.count == slash + 2, equal(text.prefix(slash), wanted[..<slash]), text[slash] == UInt8(ascii: "/"), text[slash + 1] == UInt8(ascii: "*") {
                return true
            }
        }
        return false
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
        var start = start, end = end
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    private static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { lower($0) == lower($1) }
    }
}
