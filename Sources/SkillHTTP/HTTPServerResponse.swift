/// A whole response: status, header fields and body (`Content-Length` is added when written).
public struct HTTPServerResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields (not `Content-Length` or `Connection`: the server writes those).
    public var fields: HTTPFields
    /// The body.
    public var body: [UInt8]

    /// A response with these parts.
    public init(status: Int, fields: HTTPFields = HTTPFields(), body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// A `text/plain` response of one line (plus a newline): what every refusal says.
    public static func text(_ status: Int, _ line: String, fields: HTTPFields = HTTPFields()) -> HTTPServerResponse {
        var fields = fields
        fields.append("Content-Type", "text/plain; charset=utf-8")
        return HTTPServerResponse(status: status, fields: fields, body: Array((line + "\n").utf8))
    }

    /// An `application/json` response.
    public static func json(_ status: Int, _ body: [UInt8], fields: HTTPFields = HTTPFields()) -> HTTPServerResponse {
        var fields = fields
        fields.append("Content-Type", "application/json")
        return HTTPServerResponse(status: status, fields: fields, body: body)
    }

    /// The bytes on the wire: the status line, the fields, `Content-Length`, `Connection: close` when the
    /// connection ends after it, and the body (none for HEAD).
    public func serialized(closing: Bool, headOnly: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + body.count)
        Self.appendHead(status: status, fields: fields, to: &out)
        if status != 204, status != 304, status >= 200 {
            out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8)
        }
        if closing { out.append(contentsOf: "Connection: close\r\n".utf8) }
        out.append(contentsOf: [13, 10])
        if !headOnly { out.append(contentsOf: body) }
        return out
    }

    /// The status line and fields (without the blank line).
    static func appendHead(status: Int, fields: HTTPFields, to out: inout [UInt8]) {
        out.append(contentsOf: "HTTP/1.1 \(status) \(reason(for: status))\r\n".utf8)
        for field in fields.fields {
            out.append(contentsOf: canonical(field.name).utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: [13, 10])
        }
    }

    /// `content-type` → `Content-Type` (names are case-insensitive; this reads better in logs and curl).
    static func canonical(_ name: String) -> String {
        if name == "www-authenticate" { return "WWW-Authenticate" }
        if name == "mcp-protocol-version" { return "MCP-Protocol-Version" }
        var result = ""
        var upper = true
        for character in name {
            result.append(upper ? Character(character.uppercased()) : character)
            upper = character == "-"
        }
        return result
    }

    /// The reason phrase of a status.
    public static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
