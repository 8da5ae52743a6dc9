@testable import SkillAgent

/// The HTTP/1.1 response parser of the socket transport, on bytes a model server (or whatever answers at
/// its address) sends. The first byte picks the piece size the bytes arrive in (1–64) and, by its top bit,
/// a `HEAD` request; the rest is the response. Fed in pieces as ``SocketHTTPTransport`` feeds it (stopping
/// once the response is complete, closing the connection after the last byte), it must give what feeding the
/// whole response at once gives: the same error, or the same head, body bytes and end.
func fuzzHTTP(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let method = first & 0x80 == 0 ? "POST" : "HEAD"
    let response = Array(input.dropFirst())
    let whole = HTTPReading(response, pieces: response.count, method: method)
    let pieced = HTTPReading(response, pieces: Int(first % 64) + 1, method: method)
    if pieced != whole { fatalError("in pieces of \(first % 64 + 1) bytes the response reads \(pieced), whole it reads \(whole)") }
}

/// What the transport makes of a response: its heads, body bytes and whether it ended, or the error.
struct HTTPReading: Equatable, CustomStringConvertible {
    var heads: [HTTPResponseHead] = []
    var body: [UInt8] = []
    var ends = 0
    var error: String?

    /// Feeds `bytes` in pieces of `size` (at least one byte) until the response is complete, then reports
    /// the connection's close if it is not.
    init(_ bytes: [UInt8], pieces size: Int, method: String) {
        var parser = HTTPResponseParser(method: method)
        var start = 0
        do throws(HTTPResponseParser.Malformed) {
            while start < bytes.count, !parser.isComplete {
                let end = min(start + max(size, 1), bytes.count)
                take(try parser.feed(bytes[start..<end]))
                start = end
            }
            if !parser.isComplete { take(try parser.finish()) }
        } catch {
            // What arrived before the error is not compared: in pieces the head may come out before the
            // error is seen, whole it is not; either way the transport's caller gets the error.
            (heads, body, ends) = ([], [], 0)
            self.error = error.description
        }
    }

    private mutating func take(_ events: [HTTPResponseParser.Event]) {
        for event in events {
            switch event {
            case .head(let head): heads.append(head)
            case .body(let bytes): body += bytes
            case .end: ends += 1
            }
        }
    }

    var description: String {
        if let error { return "error '\(error)'" }
        return "\(heads.map(\.status)) heads, \(body.count) body bytes, \(ends) ends"
    }
}
