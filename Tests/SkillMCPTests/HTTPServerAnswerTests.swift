import Foundation
import Glibc
import SkillHTTP
import Testing

/// Every request gets an answer: a handler that lets go of its exchange without answering gets a `500`
/// written for it (a started stream is ended and its connection closed), the connection stays usable; and
/// statuses are sent with their reason phrases.
@Suite(.serialized) struct HTTPServerAnswerTests {
    /// A server whose handler drops `/drop` unanswered (at once, or later on another thread with
    /// `/drop-later`), starts a stream and drops it for `/stream-drop`, and answers anything else `ok`.
    final class Dropping: @unchecked Sendable {
        let server: HTTPServer
        let log = SentLines()
        init() throws {
            server = try HTTPServer(host: "127.0.0.1", port: 0, log: log.sink) { exchange in
                switch exchange.request.path {
                case "/drop": return
                case "/watched":
                    // As the MCP transport does: a hang-up handler that holds the exchange, then the answer.
                    exchange.onPeerGone { withExtendedLifetime(exchange) {} }
                    exchange.respond(.text(200, "watched"))
                case "/drop-later":
                    // Held by another thread for a while, then let go.
                    Thread.detachNewThread { withExtendedLifetime(exchange) { _ = usleep(100_000) } }
                case "/stream-drop":
                    var fields = HTTPFields()
                    fields.append("Content-Type", "text/event-stream")
                    exchange.startStream(fields: fields)
                    exchange.send(Array("data: one\n\n".utf8))
                default:
                    exchange.respond(.text(200, "ok"))
                }
            }
            server.start()
        }
        deinit { server.stop() }
        var port: Int { Int(server.port) }
    }

    @Test(arguments: ["/drop", "/drop-later"])
    func aRequestTheHandlerDropsIsAnswered500AndTheConnectionGoesOn(path: String) throws {
        let dropping = try Dropping()
        let client = try RawHTTPClient(port: dropping.port)
        client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = client.response()
        #expect(response.status == 500, "\(response.head)")
        #expect(response.head.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"), "\(response.head)")
        #expect(response.body == "the server did not answer this request; retry it, or report it\n")
        #expect(dropping.log.raw.contains { $0.contains("GET \(path) was not answered by its handler; answered 500") }, "\(dropping.log.raw)")
        // Keep-alive: the same connection serves the next request.
        client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
        let next = client.response()
        #expect(next.status == 200 && next.body == "ok\n", "\(next.head)\(next.body)")
    }

    @Test func answersWhoseHangUpHandlerHoldsTheExchangeFollowEachOther() throws {
        let dropping = try Dropping()
        let client = try RawHTTPClient(port: dropping.port)
        // Each answer releases the previous exchange (held by its hang-up handler) while the next is made.
        for round in 0..<5 {
            client.send("GET /watched HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = client.response()
            #expect(response.status == 200 && response.body == "watched\n", "round \(round): \(response.head)\(response.body)")
        }
        client.send("GET /drop HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.response().status == 500)
    }

    @Test func aStreamTheHandlerDropsIsEndedAndItsConnectionClosed() throws {
        let dropping = try Dropping()
        let client = try RawHTTPClient(port: dropping.port)
        client.send("GET /stream-drop HTTP/1.1\r\nHost: x\r\n\r\n")
        let text = MCPHTTPTransportTests.read(client) { $0.hasSuffix("0\r\n\r\n") }
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.contains("data: one") && text.hasSuffix("\r\n0\r\n\r\n"), "\(text)")
        #expect(client.closedByServer(), "the connection closes after a stream ended for its handler")
    }

    @Test func statusesCarryTheirReasonPhrases() throws {
        let expected = [
            200: "OK", 202: "Accepted", 303: "See Other", 307: "Temporary Redirect", 308: "Permanent Redirect", 404: "Not Found",
            409: "Conflict", 421: "Misdirected Request", 422: "Unprocessable Content", 429: "Too Many Requests",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        for (status, reason) in expected {
            #expect(HTTPServerResponse.reason(for: status) == reason, "\(status)")
            let head = String(decoding: HTTPServerResponse(status: status).serialized(closing: false), as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 \(status) \(reason)\r\n"), "\(head)")
        }
        // A status without a registered phrase still has one (RFC 9112 allows any text).
        #expect(HTTPServerResponse.reason(for: 299) == "Status 299")
    }
}

/// `Accept` is read in place for ASCII values; it must decide as the spelled-out reading does.
@Suite struct FieldListAcceptTests {
    @Test func theInPlaceReadingDecidesAsTheSpelledOutOne() {
        let pieces = ["application/json", "text/event-stream", "*/*", "text/*", "application/*", "APPLICATION/JSON", " ", "",
                      ";q=0", "; q=0.0", ";Q=0", ";q=0.5", ";q=1", ";", ";;", "q=0", "image/png", "\t", "application/json;q=0",
                      "text/event-stream; charset=utf-8", "*/*;q=0", "application", "/", "application/jsonx"]
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<5000 {
            var value = ""
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                value += pieces.randomElement(using: &generator)!
                if Bool.random(using: &generator) { value += Bool.random(using: &generator) ? ", " : "," }
            }
            for wanted in ["application/json", "text/event-stream"] {
                #expect(FieldList.accepts(value, wanted) == FieldList.acceptsSpelledOut(value, wanted), "\(value) for \(wanted)")
                checked += 1
            }
        }
        #expect(checked == 10000)
        #expect(FieldList.accepts("application/json, text/event-stream", "text/event-stream"))
        #expect(!FieldList.accepts("application/json;q=0, image/png", "application/json"))
        #expect(FieldList.accepts("Text/*", "text/event-stream"))
        // Not ASCII: the spelled-out reading.
        #expect(FieldList.accepts("application/json, tëxt/html", "application/json"))
        #expect(FieldList.hasPrefix("Application/JSON; charset=utf-8", ignoringCase: "application/json"))
        #expect(!FieldList.hasPrefix("application/jso", ignoringCase: "application/json"))
        #expect(!FieldList.hasPrefix("text/plain", ignoringCase: "application/json"))
    }
}

/// Field look-ups compare a key made from the name before the name: they must find what a plain
/// case-insensitive comparison finds, for any spelling of any name.
@Suite struct HTTPFieldsLookUpTests {
    @Test func lookUpsFindWhatAComparisonWithoutCaseFinds() throws {
        let names = ["Host", "host", "HOST", "Content-Type", "content-typE", "Accept", "MCP-Protocol-Version", "Mcp-Method",
                     "mcp-name", "Mcp-Session-Id", "X-A", "x-b", "X-Ab", "x-ba", "Authorization", "Connection", "Origin",
                     "Last-Event-ID", "ab", "ba", "a", "b", "transfer-encoding", "Expect", "accept-encoding", "User-Agent"]
        var generator = SeededGenerator(seed: 36)
        func lower(_ text: String) -> String { String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self) }
        for round in 0..<500 {
            var fields = HTTPFields()
            var lines: [(String, String)] = []
            for index in 0..<generator.below(10) {
                let name = generator.pick(names)
                let value = "v\(round)-\(index)"
                if generator.below(2) == 0 {
                    try fields.append(line: Array("\(name):  \(value) ".utf8)[...])
                } else {
                    fields.append(name, value)
                }
                lines.append((name, value))
            }
            for wanted in names + ["hosts", "", "Ho", "mcp-nam"] {
                let matching = lines.filter { lower($0.0) == lower(wanted) }.map(\.1)
                #expect(fields[wanted] == (matching.isEmpty ? nil : matching.joined(separator: ", ")), "\(wanted) in \(lines)")
                #expect(fields.count(of: wanted) == matching.count, "\(wanted) in \(lines)")
            }
            #expect(fields.fields.map(\.name) == lines.map { lower($0.0) })
        }
        // A name that is not ASCII: stored lowercased as Unicode, found by the same spelling.
        var fields = HTTPFields()
        fields.append("X-Ünïcode", "1")
        #expect(fields["x-ünïcode"] == "1")
        #expect(HTTPFields([("A", "1")]) == HTTPFields([("a", "1")]))
    }
}
