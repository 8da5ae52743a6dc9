import Testing

@testable import SkillAgent

/// The HTTP/1.1 response parser behind SocketHTTPTransport: framing by chunks, length or close, fed in
/// arbitrary pieces, and strict about what is broken.
@Suite("HTTP response parser")
struct HTTPResponseParserTests {
    /// Feeds `text` in pieces of `size` bytes (then the close, when `close`) and collects the events.
    static func parse(_ text: String, pieces size: Int, close: Bool = false) throws -> (head: HTTPResponseHead?, body: String, ended: Bool) {
        var parser = HTTPResponseParser()
        let bytes = Array(text.utf8)
        var events: [HTTPResponseParser.Event] = []
        var index = 0
        while index < bytes.count {
            let end = min(index + size, bytes.count)
            events += try parser.feed(bytes[index..<end])
            index = end
        }
        if close { events += try parser.finish() }
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        var ended = false
        for event in events {
            switch event {
            case .head(let value): head = value
            case .body(let bytes): body += bytes
            case .end: ended = true
            }
        }
        return (head, String(decoding: body, as: UTF8.self), ended)
    }

    static let chunked =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "e\r\ndata: {\"a\":1}\n\r\n" + "7;ext=1\r\n\ndata: \r\n" + "6\r\n[DONE]\r\n" + "0\r\nX-Trailer: t\r\n\r\n"

    @Test("chunked bodies are de-chunked whatever the piece size; extensions and trailers are skipped", arguments: [1, 2, 5, 17, 4096])
    func chunked(pieceSize: Int) throws {
        let result = try Self.parse(Self.chunked, pieces: pieceSize)
        #expect(result.head?.status == 200)
        #expect(result.head?.headers["content-type"] == "text/event-stream")
        #expect(result.body == "data: {\"a\":1}\n\ndata: [DONE]")
        #expect(result.ended)
    }

    @Test("Content-Length bodies end at their length; bytes after them are ignored")
    func contentLength() throws {
        let result = try Self.parse("HTTP/1.1 401 Unauthorized\r\ncontent-length: 5\r\n\r\nhelloEXTRA", pieces: 3)
        #expect(result.head?.status == 401)
        #expect(result.body == "hello")
        #expect(result.ended)
    }

    @Test("a body without length or chunks ends when the connection closes")
    func untilClose() throws {
        let open = try Self.parse("HTTP/1.0 200 OK\r\n\r\nabc", pieces: 4)
        #expect(open.body == "abc")
        #expect(!open.ended)
        let closed = try Self.parse("HTTP/1.0 200 OK\r\n\r\nabc", pieces: 4, close: true)
        #expect(closed.ended)
    }

    @Test("interim 100 Continue heads are skipped; repeated fields are joined")
    func interimAndRepeated() throws {
        let result = try Self.parse(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nVia: a\r\nVia: b\r\nContent-Length: 0\r\n\r\n", pieces: 7)
        #expect(result.head?.status == 200)
        #expect(result.head?.headers["via"] == "a, b")
        #expect(result.ended)
    }

    @Test("broken responses are errors that say what is wrong", arguments: [
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "bad chunk size"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", "longer than its size"),
        ("SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP/1.x status line"),
        ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "bad header line"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n", "bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: +3\r\n\r\nabc", "bad Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc", "bad Content-Length"),
        ("HTTP/1.1 +20 OK\r\nContent-Length: 0\r\n\r\n", "not an HTTP/1.x status line"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "unsupported Transfer-Encoding"),
    ])
    func malformed(text: String, message: String) {
        #expect {
            _ = try Self.parse(text, pieces: 3)
        } throws: { error in
            (error as? HTTPResponseParser.Malformed)?.description.contains(message) == true
        }
    }

    /// A 200 head whose one header field makes the head (status line and fields, without the empty line)
    /// exactly `length` bytes long, then an empty body.
    static func head(ofLength length: Int) -> String {
        let start = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: "
        return start + String(repeating: "a", count: length - start.utf8.count) + "\r\n\r\n"
    }

    @Test("the head and line limits hold whether the response comes whole or in pieces", arguments: [1, 1000, 1 << 20])
    func limitsDoNotDependOnPieces(pieceSize: Int) throws {
        let limit = HTTPResponseParser.maximumHeadBytes
        #expect(try Self.parse(Self.head(ofLength: limit), pieces: pieceSize).ended)
        #expect {
            _ = try Self.parse(Self.head(ofLength: limit + 1), pieces: pieceSize)
        } throws: { error in
            (error as? HTTPResponseParser.Malformed)?.description == "the response head is longer than \(limit) bytes"
        }
        let chunkLimit = HTTPResponseParser.maximumChunkSizeLineBytes
        let chunkHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        func chunkLine(_ length: Int) -> String { "1;" + String(repeating: "x", count: length - 2) + "\r\nA\r\n0\r\n\r\n" }
        #expect(try Self.parse(chunkHead + chunkLine(chunkLimit), pieces: pieceSize).body == "A")
        #expect {
            _ = try Self.parse(chunkHead + chunkLine(chunkLimit + 1), pieces: pieceSize)
        } throws: { error in
            (error as? HTTPResponseParser.Malformed)?.description == "a chunk-size line is longer than \(chunkLimit) bytes"
        }
        let trailer = chunkHead + "0\r\nX-T: " + String(repeating: "t", count: limit) + "\r\n\r\n"
        #expect {
            _ = try Self.parse(trailer, pieces: pieceSize)
        } throws: { error in
            (error as? HTTPResponseParser.Malformed)?.description == "a trailer line is longer than \(limit) bytes"
        }
    }

    @Test("a connection that closes early is reported as cut off")
    func cutOff() {
        #expect(throws: HTTPResponseParser.Malformed.self) {
            _ = try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", pieces: 100, close: true)
        }
        #expect(throws: HTTPResponseParser.Malformed.self) {
            _ = try Self.parse("", pieces: 1, close: true)
        }
    }

    @Test("URLs: scheme, host, port, target, IPv6 literals; credentials never reach the Host header")
    func urls() throws {
        let plain = try #require(HTTPURL("http://localhost:11434/v1/chat/completions"))
        #expect(!plain.isSecure && plain.host == "localhost" && plain.port == 11434 && plain.target == "/v1/chat/completions")
        #expect(plain.hostHeader == "localhost:11434")
        let secure = try #require(HTTPURL("https://user:secret@api.example.com/v1?x=1#frag"))
        #expect(secure.isSecure && secure.port == 443 && secure.host == "api.example.com" && secure.target == "/v1?x=1")
        #expect(secure.hostHeader == "api.example.com")
        let six = try #require(HTTPURL("http://[::1]:8080"))
        #expect(six.host == "::1" && six.port == 8080 && six.target == "/" && six.hostHeader == "[::1]:8080")
        #expect(HTTPURL("ftp://example.com") == nil)
        #expect(HTTPURL("http://") == nil)
        #expect(HTTPURL("http://host:99999/") == nil)
        #expect(HTTPURL("http://host/a b") == nil)
        #expect(HTTPURL("http://host/a\r\nInjected: 1") == nil)
    }

    @Test("request heads: the transport owns Host, Content-Length and Connection; line breaks are refused")
    func requestHead() throws {
        let url = try #require(HTTPURL("http://127.0.0.1:9/v1/x"))
        let message = try HTTPRequestWriter.message(
            for: HTTPRequest(url: "", headers: ["Authorization": "Bearer k", "Host": "evil", "Content-Length": "99"], body: Array("{}".utf8)),
            url: url)
        let text = String(decoding: message, as: UTF8.self)
        #expect(text.hasPrefix("POST /v1/x HTTP/1.1\r\nHost: 127.0.0.1:9\r\nContent-Length: 2\r\nConnection: close\r\n"))
        #expect(text.contains("Authorization: Bearer k\r\n"))
        #expect(!text.contains("evil") && !text.contains("99"))
        #expect(text.hasSuffix("\r\n\r\n{}"))
        #expect(throws: ModelProviderError.self) {
            _ = try HTTPRequestWriter.message(for: HTTPRequest(url: "", headers: ["X": "a\r\nInjected: 1"]), url: url)
        }
    }
}
