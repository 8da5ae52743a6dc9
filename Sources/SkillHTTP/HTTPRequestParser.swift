import Glibc

/// Reads HTTP/1.1 requests from a connection's bytes (RFC 9112), strictly and within limits: the head (request
/// line and fields) at most ``HTTPServerLimits/maximumHeadBytes``, the body at most
/// ``HTTPServerLimits/maximumBodyBytes`` by `Content-Length` or `Transfer-Encoding: chunked`. Every refusal is an
/// ``HTTPRequestError`` with the status to answer and one line that says what was wrong and how to fix it.
public struct HTTPRequestParser: Sendable {
    /// The limits.
    public let limits: HTTPServerLimits
    private var pending: [UInt8] = []
    /// Where the search for the head's end resumes.
    private var searched = 0

    /// A parser with these limits.
    public init(limits: HTTPServerLimits) { self.limits = limits }

    /// Bytes received and not yet part of a request.
    public var buffered: Int { pending.count }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) { pending.append(contentsOf: bytes) }

    /// The next head when it has arrived whole (its bytes are consumed), nil when more bytes are needed.
    public mutating func head() throws(HTTPRequestError) -> HTTPServerRequest? {
        // Blank lines before a request line are ignored (RFC 9112 §2.2).
        while pending.count >= 2, pending[0] == 13, pending[1] == 10 { pending.removeFirst(2) }
        guard let end = headEnd(from: searched) else {
            searched = max(0, pending.count - 3)
            // Up to three bytes of the terminator may be here already: a head of exactly the limit is still
            // whole-able until a fourth byte past it arrives without the terminator.
            if pending.count > limits.maximumHeadBytes + 3 { throw .headTooLarge(limits) }
            return nil
        }
        searched = 0
        if end > limits.maximumHeadBytes { throw .headTooLarge(limits) }
        let head = pending[0..<end]
        pending.removeFirst(end + 4)
        return try Self.parseHead(head)
    }

    /// How the body of `request` is framed, checked against the limits before any of it is read.
    public func framing(of request: HTTPServerRequest) throws(HTTPRequestError) -> BodyFraming {
        // The common case first: one Content-Length of plain digits, no Transfer-Encoding.
        var lengthFields = 0
        var only: String?
        var encoded = false
        for field in request.fields.fields {
            if field.name == "content-length" {
                lengthFields += 1
                only = field.value
            } else if field.name == "transfer-encoding" {
                encoded = true
            }
        }
        if !encoded, lengthFields == 1, let only, !only.isEmpty, only.utf8.count <= 18, only.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let length = Int(only)
        {
            if length > limits.maximumBodyBytes { throw .bodyTooLarge(limits, length: length) }
            return .length(length)
        }
        if !encoded, lengthFields == 0 { return .length(0) }
        let lengths = request.fields.fields.filter { $0.name == "content-length" }.map(\.value)
        let encoding = request.fields["transfer-encoding"]
        if encoding != nil, !lengths.isEmpty {
            throw HTTPRequestError(400, "the request has both Transfer-Encoding and Content-Length; send one")
        }
        if let encoding {
            guard encoding.lowercased() == "chunked" else {
                throw HTTPRequestError(501, "Transfer-Encoding '\(encoding)' is not supported; send the body with Content-Length or as chunked")
            }
            return .chunked
        }
        guard let first = lengths.first else { return .length(0) }
        // Repeated identical values are allowed (RFC 9112 §6.3); anything else is refused.
        let values = Set(lengths.flatMap { $0.split(separator: ",").map { HTTPFields.trimmed($0) } })
        guard values.count == 1, let only = values.first, !only.isEmpty, only.utf8.count <= 18,
            only.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(only)
        else {
            throw HTTPRequestError(400, "Content-Length '\(first.prefix(40))' is not one decimal number; send the body's size in bytes")
        }
        if length > limits.maximumBodyBytes { throw .bodyTooLarge(limits, length: length) }
        return .length(length)
    }

    /// The body's framing.
    public enum BodyFraming: Sendable, Equatable {
        case length(Int)
        case chunked
    }

    /// The whole body of `length` bytes when it has arrived (consumed), else nil.
    public mutating func body(length: Int) -> [UInt8]? {
        guard pending.count >= length else { return nil }
        let body = Array(pending[0..<length])
        pending.removeFirst(length)
        return body
    }

    /// The whole chunked body when it has arrived (consumed, trailers skipped), else nil.
    public mutating func chunkedBody() throws(HTTPRequestError) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            // The same refusal whether the line arrived whole or in pieces: longer than 1024 bytes once its
            // end is seen, or when more than 1024 bytes and a CR have come without one.
            let tooLong = HTTPRequestError(400, "a chunk-size line is longer than 1024 bytes; send a valid chunked body")
            guard let lineEnd = find([13, 10], from: index) else {
                if pending.count - index > 1024 + 1 { throw tooLong }
                return nil
            }
            if lineEnd - index > 1024 { throw tooLong }
            let line = pending[index..<lineEnd]
            let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
            guard !sizeText.isEmpty, sizeText.count <= 15, sizeText.allSatisfy(Self.isHexDigit),
                let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16)
            else {
                throw HTTPRequestError(400, "a chunk size is not a hexadecimal number; send a valid chunked body")
            }
            index = lineEnd + 2
            if size == 0 {
                // Trailer fields until an empty line.
                while true {
                    guard let end = find([13, 10], from: index) else {
                        if pending.count - index > limits.maximumHeadBytes + 1 { throw .headTooLarge(limits) }
                        return nil
                    }
                    if end == index {
                        pending.removeFirst(end + 2)
                        return body
                    }
                    if end - index > limits.maximumHeadBytes { throw .headTooLarge(limits) }
                    index = end + 2
                }
            }
            if body.count + size > limits.maximumBodyBytes { throw .bodyTooLarge(limits, length: body.count + size) }
            guard pending.count >= index + size + 2 else { return nil }
            guard pending[index + size] == 13, pending[index + size + 1] == 10 else {
                throw HTTPRequestError(400, "a chunk does not end with CRLF after its size; send a valid chunked body")
            }
            body.append(contentsOf: pending[index..<index + size])
            index += size + 2
        }
    }

    /// The request line and fields of a head (without the blank line), read from its bytes in place.
    static func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPServerRequest {
        try bytes.withUnsafeBufferPointer { (head) throws(HTTPRequestError) in try parseHead(head) }
    }

    private static func parseHead(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPRequestError) -> HTTPServerRequest {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw HTTPRequestError(400, "not an HTTP request line: ''; send 'METHOD /path HTTP/1.1'")
        }
        guard memchr(base, 0, bytes.count) == nil else { throw HTTPRequestError(400, "the request head holds a NUL byte; send a valid HTTP/1.1 request") }
        // Where each line ends (at its CR): the request line, then one field a line.
        func lineEnd(from start: Int) -> Int {
            Self.crlf(in: base, from: start, count: bytes.count) ?? bytes.count
        }
        let requestEnd = lineEnd(from: 0)
        let requestLine = UnsafeBufferPointer(rebasing: bytes[0..<requestEnd])
        // `METHOD SP TARGET SP VERSION`: exactly two spaces.
        var spaces = (-1, -1)
        var count = 0
        for index in 0..<requestLine.count where requestLine[index] == 0x20 {
            if count == 0 { spaces.0 = index } else if count == 1 { spaces.1 = index }
            count += 1
        }
        let method = count == 2 ? UnsafeBufferPointer(rebasing: requestLine[0..<spaces.0]) : UnsafeBufferPointer(rebasing: requestLine[0..<0])
        let target = count == 2 ? UnsafeBufferPointer(rebasing: requestLine[(spaces.0 + 1)..<spaces.1]) : method
        guard count == 2, !method.isEmpty, method.allSatisfy(HTTPFields.isTokenByte), !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw HTTPRequestError(400, "not an HTTP request line: '\(HTTPFields.printable(Array(requestLine)[...]))'; send 'METHOD /path HTTP/1.1'")
        }
        let version = UnsafeBufferPointer(rebasing: requestLine[(spaces.1 + 1)...])
        let minor: Int
        if version.elementsEqual("HTTP/1.1".utf8) {
            minor = 1
        } else if version.elementsEqual("HTTP/1.0".utf8) {
            minor = 0
        } else {
            throw HTTPRequestError(505, "'\(HTTPFields.printable(Array(version)[...]))' is not served; send HTTP/1.1")
        }
        var fields = HTTPFields()
        fields.reserveCapacity(12)
        var hosts = 0
        var start = requestEnd + 2
        do {
            while start <= bytes.count, requestEnd < bytes.count {
                let end = lineEnd(from: start)
                try fields.append(line: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                if fields.fields[fields.fields.count - 1].name == "host" { hosts += 1 }
                start = end + 2
            }
        } catch {
            throw HTTPRequestError(400, error.description + "; send valid header fields")
        }
        if minor == 1, hosts != 1 {
            throw HTTPRequestError(400, "an HTTP/1.1 request needs exactly one Host header field (RFC 9112 §3.2)")
        }
        return HTTPServerRequest(
            method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self), minorVersion: minor,
            fields: fields)
    }

    /// Where the first CR LF at or after `start` begins (`memchr` finds each CR), nil when there is none.
    private static func crlf(in base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        var index = start
        while index < count, let found = memchr(base + index, 13, count - index) {
            let position = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            if position + 1 < count, base[position + 1] == 10 { return position }
            index = position + 1
        }
        return nil
    }

    /// Where the head's terminating CR LF CR LF begins, searched from `start`; nil when it has not arrived.
    private func headEnd(from start: Int) -> Int? {
        pending.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var index = start
            while let found = Self.crlf(in: base, from: index, count: bytes.count) {
                if found + 3 < bytes.count, bytes[found + 2] == 13, bytes[found + 3] == 10 { return found }
                if found + 3 >= bytes.count { return nil }
                index = found + 2
            }
            return nil
        }
    }

    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first else { return start }
        var index = start
        while index + pattern.count <= pending.count {
            if pending[index] == first, pending[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }
}

/// A request the server refuses: the status to answer and one line (what, and how to fix it).
public struct HTTPRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// One line.
    public var message: String

    /// A refusal.
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status) \(HTTPServerResponse.reason(for: status)): \(message)" }

    static func headTooLarge(_ limits: HTTPServerLimits) -> HTTPRequestError {
        HTTPRequestError(431, "the request head is larger than \(limits.maximumHeadBytes) bytes; send fewer or shorter header fields")
    }

    static func bodyTooLarge(_ limits: HTTPServerLimits, length: Int) -> HTTPRequestError {
        HTTPRequestError(413, "the body (\(length) bytes) is larger than the limit of \(limits.maximumBodyBytes) bytes; send a smaller request")
    }
}
