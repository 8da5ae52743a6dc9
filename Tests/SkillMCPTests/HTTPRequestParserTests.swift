import SkillHTTP
import Testing

/// SkillHTTP's request parser: what it reads and refuses, and that a stream reads the same in any pieces (the
/// `http-request` fuzz target's property, replayed on its seeds and regressions).
@Suite struct HTTPRequestParserTests {
    static func read(_ text: String, pieces: Int = 1 << 20) -> HTTPRequestReading {
        HTTPRequestReading(Array(text.utf8), pieces: pieces)
    }

    @Test func pipelinedRequestsChunkedBodiesAndRepeatedLengthsAreRead() {
        let pipelined = Self.read("GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
        #expect(pipelined.requests.count == 2)
        #expect(pipelined.requests[0].hasPrefix("GET /a 0:"))
        #expect(pipelined.requests[1].hasPrefix("POST /b 2:"))
        #expect(pipelined.refusal == nil)
        let chunked = Self.read("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nT: y\r\n\r\n")
        let plain = Self.read("POST /c HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world")
        #expect(chunked.requests == plain.requests, "a chunked body is the bytes of its chunks")
        #expect(Self.read("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2, 2\r\n\r\nok").refusal == nil)
        #expect(Self.read("GET / HTTP/1.0\r\n\r\n").requests == ["GET / 0:0"], "HTTP/1.0 needs no Host")
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 20_000))\r\n\r\n", "431"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", "413"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", "400"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok", "400"),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", "400"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", "501"),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "400"),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"),
        ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n", "400"),
        ("GET / HTTP/3\r\nHost: x\r\n\r\n", "505"),
        ("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", "400"),
        ("GET / HTTP/1.1\r\nHost: x\0\r\n\r\n", "400"),
    ])
    func badRequestsAreRefusedWithTheirStatusInAnyPieces(_ request: String, _ status: String) {
        for pieces in [1, 3, 64, 1 << 20] {
            let reading = Self.read(request, pieces: pieces)
            #expect(reading.refusal?.hasPrefix(status + ":") == true, "in pieces of \(pieces): \(reading)")
        }
    }

    @Test func theFuzzInputsReadAlikeInPiecesAndWhole() {
        let inputs = FuzzCorpus.inputs("http-request")
        #expect(inputs.count >= 9)
        for (name, bytes) in inputs {
            guard let first = bytes.first else { continue }
            var limits = HTTPServerLimits()
            limits.maximumHeadBytes = 2048
            limits.maximumBodyBytes = 65536
            let stream = Array(bytes.dropFirst())
            let whole = HTTPRequestReading(stream, pieces: max(stream.count, 1), limits: limits)
            #expect(HTTPRequestReading(stream, pieces: Int(first % 64) + 1, limits: limits) == whole, "\(name)")
            #expect(HTTPRequestReading(stream, pieces: 1, limits: limits) == whole, "\(name)")
        }
    }

    /// A chunk-size line (and a trailer line) is refused for its length the same way whichever pieces it
    /// arrives in: 1024 bytes read, 1025 refused; a trailer line over the head limit refused.
    @Test func longChunkLinesAreRefusedAlikeInPiecesAndWhole() {
        let head = "POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        var limits = HTTPServerLimits()
        limits.maximumHeadBytes = 2048
        for (length, refused) in [(1024, false), (1025, true)] {
            let line = "0;" + String(repeating: "e", count: length - 2)
            let stream = Array((head + line + "\r\n\r\n").utf8)
            let whole = HTTPRequestReading(stream, pieces: stream.count, limits: limits)
            #expect((whole.refusal?.contains("chunk-size line is longer than 1024 bytes") == true) == refused, "\(length): \(whole)")
            for pieces in [1, 2, 3, 4, 7, 64] {
                #expect(HTTPRequestReading(stream, pieces: pieces, limits: limits) == whole, "\(length) in pieces of \(pieces)")
            }
        }
        let trailer = Array((head + "0\r\nX-T: " + String(repeating: "t", count: 2100) + "\r\n\r\n").utf8)
        let whole = HTTPRequestReading(trailer, pieces: trailer.count, limits: limits)
        #expect(whole.refusal != nil, "\(whole)")
        for pieces in [1, 5, 64] { #expect(HTTPRequestReading(trailer, pieces: pieces, limits: limits) == whole, "trailer in pieces of \(pieces)") }
    }

    /// The head's end and its lines are found by `memchr` for each CR: a CR without its LF (in a value, before
    /// the blank line, doubled) must neither end a line nor the head, in any pieces.
    @Test(arguments: [
        ("GET /a HTTP/1.1\r\nHost: x\r\r\n\r\n", nil, "400"),
        ("GET /a HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", nil, "400"),
        ("GET /a HTTP/1.1\r\nHost: x\r\n\r\r\n\r\n", nil, "400"),
        ("\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n", "GET /a 0:0", nil),
        ("GET /a HTTP/1.1\r\nHost: x\r\nX: \r\r\r\n\r\n", nil, "400"),
        ("GET /a HTTP/1.1\r\nHost: x\r\nX:\r\n\r\nGET /b HTTP/1.1\r\nHost: y\r\n\r\n", "GET /a 0:0", nil),
        ("GET /a HTTP/1.1\r\nHost: x\n\r\n", nil, nil),  // no CR LF CR LF: the head has not ended
    ] as [(String, String?, String?)])
    func crsWithoutLineFeedsEndNothing(_ text: String, _ first: String?, _ status: String?) {
        for pieces in [1, 2, 3, 5, 1 << 20] {
            let reading = Self.read(text, pieces: pieces)
            #expect(reading.requests.first == first, "in pieces of \(pieces): \(reading)")
            if let status { #expect(reading.refusal?.hasPrefix(status + ":") == true, "in pieces of \(pieces): \(reading)") }
            if status == nil { #expect(reading.refusal == nil, "in pieces of \(pieces): \(reading)") }
        }
    }
}
