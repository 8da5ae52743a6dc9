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
        fields.append("content-type", "text/plain; charset=utf-8")
        return HTTPServerResponse(status: status, fields: fields, body: Array((line + "\n").utf8))
    }

    /// An `application/json` response.
    public static func json(_ status: Int, _ body: [UInt8], fields: HTTPFields = HTTPFields()) -> HTTPServerResponse {
        var fields = fields
        fields.append("content-type", "application/json")
        return HTTPServerResponse(status: status, fields: fields, body: body)
    }

    /// The bytes on the wire: the status line, the fields, `Content-Length`, `Connection: close` when the
    /// connection ends after it, and the body (none for HEAD).
    public func serialized(closing: Bool, headOnly: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + body.count)
        Self.appendHead(status: status, fields: fields, to: &out)
        if status != 204, status != 304, status >= 200 {
            out.append(contentsOf: "Content-Length: ".utf8)
            Self.appendDecimal(body.count, to: &out)
            out.append(contentsOf: [13, 10])
        }
        if closing { out.append(contentsOf: "Connection: close\r\n".utf8) }
        out.append(contentsOf: [13, 10])
        if !headOnly { out.append(contentsOf: body) }
        return out
    }

    /// The status line and fields (without the blank line), written byte by byte into `out`.
    static func appendHead(status: Int, fields: HTTPFields, to out: inout [UInt8]) {
        switch status {
        case 200: out.append(contentsOf: "HTTP/1.1 200 OK\r\n".utf8)
        case 202: out.append(contentsOf: "HTTP/1.1 202 Accepted\r\n".utf8)
        default:
            out.append(contentsOf: "HTTP/1.1 ".utf8)
            appendDecimal(status, to: &out)
            out.append(0x20)
            out.append(contentsOf: reason(for: status).utf8)
            out.append(contentsOf: [13, 10])
        }
        for field in fields.fields {
            appendCanonical(field.name, to: &out)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: [13, 10])
        }
    }

    /// A non-negative number in decimal digits.
    static func appendDecimal(_ number: Int, to out: inout [UInt8]) {
        guard number > 0 else {
            out.append(UInt8(ascii: "0"))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// `content-type` → `Content-Type` (names are case-insensitive; this reads better in logs and curl).
    static func canonical(_ name: String) -> String {
        var out: [UInt8] = []
        appendCanonical(name, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``canonical(_:)`` written into `out` (names are ASCII tokens: each letter after a `-` or at the start
    /// in uppercase).
    static func appendCanonical(_ name: String, to out: inout [UInt8]) {
        switch name {
        case "content-type": out.append(contentsOf: "Content-Type".utf8)
        case "www-authenticate": out.append(contentsOf: "WWW-Authenticate".utf8)
        case "mcp-protocol-version": out.append(contentsOf: "MCP-Protocol-Version".utf8)
        case "mcp-session-id": out.append(contentsOf: "Mcp-Session-Id".utf8)
        default:
            var upper = true
            for byte in name.utf8 {
                out.append(upper && byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte)
                upper = byte == UInt8(ascii: "-")
            }
        }
    }

    /// The reason phrase of a status.
    public static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
