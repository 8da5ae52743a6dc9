/// What the server makes of a stream of request bytes, fed in pieces as a connection's reads deliver them: each
/// request's method, target and body, then the refusal that ends the connection (or nothing). The `http-request`
/// fuzz target and its replay test compare a stream read whole with the same stream in pieces.
public struct HTTPRequestReading: Equatable, Sendable, CustomStringConvertible {
    /// `METHOD target <body bytes>` per request read.
    public var requests: [String] = []
    /// The refusal (`status: message`), when the stream held one.
    public var refusal: String?

    /// Reads `bytes` in pieces of `size` (at least 1) with `limits`, as ``HTTPServer`` does (at most 64
    /// requests: a fuzz input cannot make the reading unbounded).
    public init(_ bytes: [UInt8], pieces size: Int, limits: HTTPServerLimits = HTTPServerLimits()) {
        var parser = HTTPRequestParser(limits: limits)
        var start = 0
        var pending: HTTPServerRequest?
        var framing: HTTPRequestParser.BodyFraming?
        do throws(HTTPRequestError) {
            while requests.count < 64 {
                if pending == nil {
                    if let head = try parser.head() {
                        pending = head
                        framing = try parser.framing(of: head)
                        continue
                    }
                } else if let request = pending, let framing {
                    let body: [UInt8]?
                    switch framing {
                    case .length(let length): body = parser.body(length: length)
                    case .chunked: body = try parser.chunkedBody()
                    }
                    if let body {
                        requests.append("\(request.method) \(request.target) \(body.count):\(body.reduce(0) { $0 &* 31 &+ Int($1) })")
                        pending = nil
                        continue
                    }
                }
                guard start < bytes.count else { break }
                let end = min(start + max(size, 1), bytes.count)
                parser.append(bytes[start..<end])
                start = end
            }
        } catch {
            refusal = "\(error.status): \(error.message)"
        }
    }

    public var description: String { "\(requests) then \(refusal ?? "no refusal")" }
}
