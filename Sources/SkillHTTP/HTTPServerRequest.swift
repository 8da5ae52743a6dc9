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
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[..<mark])
    }

    /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection: close`; HTTP/1.0
    /// only with `Connection: keep-alive`).
    public var keepsAlive: Bool {
        let tokens = (fields["connection"] ?? "").lowercased().split(separator: ",").map { FieldList.trimmed($0) }
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

    /// Whether an `Accept` value accepts `mediaType` (`type/subtype`, `type/*`, `*/*`; a `q=0` item excludes).
    public static func accepts(_ accept: String?, _ mediaType: String) -> Bool {
        guard let accept else { return false }
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
