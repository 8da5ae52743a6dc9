import Foundation
import SkillCalls
import SkillHTTP
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// `skillhost mcp --http`'s transport in process, over real sockets with a raw client: every bad request is
/// refused with its status and one line, and the server keeps serving other clients.
@Suite(.serialized) struct MCPHTTPTransportTests {
    /// An HTTP server with the MCP transport over a ``FakeBackend`` (p.echo read, p.note write, p.slow read)
    /// and a registry holding a write and a read token.
    final class Harness: @unchecked Sendable {
        let backend = FakeBackend([MCPTestSupport.tool("p.echo"), MCPTestSupport.tool("p.note", permission: .write), MCPTestSupport.tool("p.slow")])
        let server: HTTPServer
        let transport: MCPHTTPTransport
        let writeToken: String
        let readToken: String
        let log = SentLines()

        init(limits: HTTPServerLimits = Harness.quick, http: MCPHTTPConfiguration = MCPHTTPConfiguration()) throws {
            let registry = MCPTestSupport.temporaryDirectory("skillhost-http-transport") + "/skill_registry.json"
            let store = RegistryStore(path: registry)
            let (write, read) = (AccessToken.generateSecret(), AccessToken.generateSecret())
            writeToken = write
            readToken = read
            try store.update { registry in
                registry.setAccessToken(AccessToken(name: "writer", sha256: AccessToken.hash(write), scope: .write, created: 0))
                registry.setAccessToken(AccessToken(name: "reader", sha256: AccessToken.hash(read), scope: .read, created: 0))
            }
            let configuration = MCPServerConfiguration(approval: MCPApprovalPolicy(allowWrites: false, registryPath: registry), progressInterval: .milliseconds(200))
            let backend = self.backend
            let log = self.log
            let stateless = MCPServer(configuration: configuration, backend: backend, send: { _ in })
            transport = MCPHTTPTransport(
                configuration: http, stateless: stateless,
                makeSession: { MCPServer(configuration: configuration, backend: backend, send: { _ in }) },
                tokens: MCPTokenVerifier(store: store, resource: http.resource), log: log.sink)
            let transport = self.transport
            server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, log: log.sink) { transport.handle($0) }
            server.start()
        }

        deinit { server.stop() }

        static var quick: HTTPServerLimits {
            var limits = HTTPServerLimits()
            limits.headTimeout = .seconds(1)
            limits.bodyTimeout = .seconds(1)
            limits.writeTimeout = .seconds(1)
            return limits
        }

        var port: Int { Int(server.port) }

        /// One request on a new connection.
        func send(_ request: String, client: RawHTTPClient? = nil) throws -> RawHTTPClient.Response {
            let client = try client ?? RawHTTPClient(port: port)
            client.send(request)
            return client.response()
        }
    }

    static let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    /// A POST of `body` with the stateless revision's headers (overridable; a nil value drops a header).
    static func post(_ body: String, token: String?, headers: [String: String?] = [:], method: String = "tools/call", name: String? = "p_echo") -> String {
        var fields: [String: String?] = [
            "Host": "127.0.0.1", "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, "Mcp-Name": name,
            "Authorization": token.map { "Bearer \($0)" },
        ]
        for (key, value) in headers { fields[key] = value }
        var text = "POST /mcp HTTP/1.1\r\n"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) { if let value { text += "\(key): \(value)\r\n" } }
        return text + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    static func call(_ name: String, _ arguments: String = #"{"text":"hi"}"#, id: Int = 1, meta: String = MCPHTTPTransportTests.meta) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(name)","arguments":\#(arguments),\#(meta)}}"#
    }

    @Test func aGoodCallIsAnsweredAsJSON() throws {
        let harness = try Harness()
        let response = try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken))
        #expect(response.status == 200, "\(response.head)\n\(response.body)")
        #expect(response.field("content-type") == "application/json")
        let json = try JSONValue(parsing: response.body)
        #expect(json["result"]?["resultType"] == "complete")
        #expect(json["result"]?["structuredContent"]?["text"] == "hi")
    }

    /// Each bad request on its own connection: (what, request, status, a piece of the one-line answer).
    static func badRequests(_ write: String, _ read: String) -> [(String, String, Int, String)] {
        let listBody = #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(meta)}}"#
        return [
            ("wrong Origin", post(call("p_echo"), token: write, headers: ["Origin": "http://evil.example"]), 403, "Origin http://evil.example is not allowed"),
            ("no token", post(call("p_echo"), token: nil), 401, "no bearer token"),
            ("no token, not even for tools/list", post(listBody, token: nil, method: "tools/list", name: nil), 401, "no bearer token"),
            ("no token, not even for server/discover", post(listBody.replacingOccurrences(of: "tools/list", with: "server/discover"), token: nil, method: "server/discover", name: nil), 401, "no bearer token"),
            ("not a bearer token", post(call("p_echo"), token: nil, headers: ["Authorization": "Basic dXNlcjpwYXNz"]), 401, "is not 'Bearer <token>'"),
            ("unknown token", post(call("p_echo"), token: "skh_nope"), 401, "not known here or was revoked"),
            ("a read token on a write skill", post(call("p_note"), token: read, name: "p_note"), 403, "has scope read and tool p_note needs write"),
            ("GET", "GET /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(write)\r\n\r\n", 405, "POST one JSON-RPC message"),
            ("another path", "GET /admin HTTP/1.1\r\nHost: x\r\n\r\n", 404, "the MCP endpoint is /mcp"),
            ("not JSON's type", post(call("p_echo"), token: write, headers: ["Content-Type": "text/plain"]), 415, "Content-Type must be application/json"),
            ("nothing acceptable", post(call("p_echo"), token: write, headers: ["Accept": "text/html"]), 406, "Accept must list"),
            ("a body that is not JSON", post("{not json", token: write), 400, "the body is not JSON"),
            ("a batch", post("[\(call("p_echo"))]", token: write), 400, "batches are not served"),
            ("Mcp-Method differs", post(call("p_echo"), token: write, headers: ["Mcp-Method": "tools/list"]), 400, "does not match the body's method"),
            ("no MCP-Protocol-Version", post(call("p_echo"), token: write, headers: ["MCP-Protocol-Version": nil]), 400, "MCP-Protocol-Version header (missing)"),
            ("Mcp-Name differs", post(call("p_echo"), token: write, headers: ["Mcp-Name": "p_note"]), 400, "does not match params.name"),
            ("an unsupported version", post(call("p_echo", meta: meta.replacingOccurrences(of: "2026-07-28", with: "2099-01-01")), token: write, headers: ["MCP-Protocol-Version": "2099-01-01"]), 400, "2099-01-01 is not served"),
            ("an unknown method", post(listBody.replacingOccurrences(of: "tools/list", with: "tools/frobnicate"), token: write, method: "tools/frobnicate", name: nil), 404, "tools/frobnicate"),
            ("no envelope and no session", post(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, token: write, method: "tools/list", name: nil), 400, "or an Mcp-Session-Id from initialize"),
            ("an unknown session", post(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, token: write, headers: ["Mcp-Session-Id": "gone"], method: "tools/list", name: nil), 404, "initialize again"),
            ("a 100 MB body", "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n", 413, "larger than the limit of 4194304 bytes"),
            ("a 20 KB head", "POST /mcp HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431, "larger than 16384 bytes"),
            ("two framings", "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "both Transfer-Encoding and Content-Length"),
            ("a broken request line", "HELLO\r\n\r\n", 400, "not an HTTP request line"),
            ("HTTP/2.0", "GET /mcp HTTP/2.0\r\nHost: x\r\n\r\n", 505, "send HTTP/1.1"),
            ("no Host", "GET /mcp HTTP/1.1\r\nAccept: */*\r\n\r\n", 400, "exactly one Host header"),
            ("a space before the colon", "GET /mcp HTTP/1.1\r\nHost : x\r\n\r\n", 400, "not a token"),
        ]
    }

    @Test func everyBadRequestIsRefusedWithItsStatusAndOneLineAndTheServerKeepsServing() throws {
        let harness = try Harness()
        for (what, request, status, piece) in Self.badRequests(harness.writeToken, harness.readToken) {
            let response = try harness.send(request)
            #expect(response.status == status, "\(what): \(response.head)\n\(response.body)")
            #expect(response.body.contains(piece), "\(what): \(response.body)")
            #expect(response.body.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(what): one line: \(response.body)")
        }
        let unauthorized = try harness.send(Self.post(Self.call("p_echo"), token: nil))
        #expect(unauthorized.field("www-authenticate")?.contains(#"resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp""#) == true)
        let scope = try harness.send(Self.post(Self.call("p_note"), token: harness.readToken, name: "p_note"))
        #expect(scope.field("www-authenticate")?.contains(#"error="insufficient_scope""#) == true)
        let version = try JSONValue(parsing: try harness.send(Self.post(
            Self.call("p_echo", meta: Self.meta.replacingOccurrences(of: "2026-07-28", with: "2099-01-01")), token: harness.writeToken,
            headers: ["MCP-Protocol-Version": "2099-01-01"])).body)
        #expect(version["error"]?["code"] == -32022)
        #expect(version["error"]?["data"]?["supported"] == ["2026-07-28"])
        // A notification is accepted without an answer.
        let notification = try harness.send(Self.post(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,\#(Self.meta)}}"#, token: harness.writeToken, method: "notifications/cancelled", name: nil))
        #expect(notification.status == 202 && notification.body.isEmpty)
        // Still serving.
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken)).status == 200)
        // The clients closed their connections; the server's loop closes its ends on its next turns.
        var waited = 0
        while harness.server.connections > 0, waited < 100 {
            usleep(10_000)
            waited += 1
        }
        #expect(harness.server.connections == 0)
    }

    @Test func anAllowedOriginAndTheServersOwnPass() throws {
        var http = MCPHTTPConfiguration()
        http.allowedOrigins = ["https://app.example"]
        let harness = try Harness(http: http)
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken, headers: ["Origin": "https://app.example"])).status == 200)
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken, headers: ["Origin": "http://127.0.0.1"])).status == 200)
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken, headers: ["Origin": "https://app.example.evil"])).status == 403)
    }

    @Test func aHeadThatNeverEndsTimesOutWith408() throws {
        let harness = try Harness()
        let client = try RawHTTPClient(port: harness.port)
        client.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        let started = Date()
        let response = client.response()
        #expect(response.status == 408, "\(response.head)")
        #expect(response.body.contains("did not arrive whole"))
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(client.closedByServer(within: 2))
        // A body that stops half-way too.
        let half = try RawHTTPClient(port: harness.port)
        half.send("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
        #expect(half.response().status == 408)
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken)).status == 200)
    }

    @Test func aStalledReaderIsCutOffAndOthersAreServedMeanwhile() throws {
        let harness = try Harness()
        let stalled = try RawHTTPClient(port: harness.port, receiveBuffer: 4096)
        // About 3 MB of arguments come back twice (text and structured content): more than the socket buffers.
        let big = String(repeating: "x", count: 3_000_000)
        stalled.send(Self.post(Self.call("p_echo", #"{"text":"\#(big)"}"#), token: harness.writeToken))
        let started = Date()
        // Others are served while the server waits for the stalled reader.
        for _ in 0..<5 { #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken)).status == 200) }
        // The write timeout (1 s here) ends the stalled connection.
        var waited = 0
        while harness.server.connections > 0, waited < 100 {
            usleep(100_000)
            waited += 1
        }
        #expect(harness.server.connections == 0, "the stalled connection was closed")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aTokenHasItsLimitOfRequestsInFlightAndAHangUpCancelsItsCall() throws {
        var http = MCPHTTPConfiguration()
        http.maximumRequestsPerToken = 1
        let harness = try Harness(http: http)
        let slow = try RawHTTPClient(port: harness.port)
        slow.send(Self.post(Self.call("p_slow", "{}"), token: harness.writeToken, name: "p_slow"))
        var waited = 0
        while !harness.backend.events.contains("slow started"), waited < 100 {
            usleep(50_000)
            waited += 1
        }
        let second = try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken))
        #expect(second.status == 429, "\(second.head)")
        #expect(second.field("retry-after") == "1")
        // Another token is not held up.
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.readToken)).status == 200)
        // Hanging up cancels the slow call, and the place is free again.
        shutdown(slow.descriptor, Int32(SHUT_RDWR))
        waited = 0
        while !harness.backend.events.contains("slow cancelled"), waited < 100 {
            usleep(50_000)
            waited += 1
        }
        #expect(harness.backend.events.contains("slow cancelled"))
        usleep(300_000)
        #expect(try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken)).status == 200)
    }

    @Test func connectionsBeyondTheLimitGet503() throws {
        var limits = Harness.quick
        limits.maximumConnections = 2
        let harness = try Harness(limits: limits)
        let first = try RawHTTPClient(port: harness.port)
        let second = try RawHTTPClient(port: harness.port)
        first.send("")
        second.send("")
        usleep(200_000)
        let third = try harness.send(Self.post(Self.call("p_echo"), token: harness.writeToken))
        #expect(third.status == 503, "\(third.head)")
        #expect(third.body.contains("connections open"))
        _ = first
        _ = second
    }

    /// Reads a chunked stream until `done` says so (or the connection ends).
    static func read(_ client: RawHTTPClient, until done: (String) -> Bool) -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(text) {
            let count = recv(client.descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return text
    }

    @Test func aClientThatTakesOnlyEventStreamsGetsTheAnswerAsAnEventAndTheConnectionStaysOpen() throws {
        let harness = try Harness()
        let client = try RawHTTPClient(port: harness.port)
        client.send(Self.post(Self.call("p_echo"), token: harness.writeToken, headers: ["Accept": "text/event-stream"]))
        let text = Self.read(client) { $0.contains("\r\n0\r\n\r\n") }
        #expect(text.contains("Content-Type: text/event-stream"), "\(text)")
        #expect(text.contains("Transfer-Encoding: chunked"))
        #expect(text.contains("X-Accel-Buffering: no"))
        #expect(text.contains("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"))
        // The same connection serves the next request (keep-alive).
        client.send(Self.post(Self.call("p_echo", id: 2), token: harness.writeToken))
        #expect(client.response().status == 200)
    }

    @Test func progressOfALongCallArrivesAsEventsAndClosingTheStreamCancelsIt() throws {
        let harness = try Harness()
        let meta = #""_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#
        let client = try RawHTTPClient(port: harness.port)
        client.send(Self.post(Self.call("p_slow", "{}", meta: meta), token: harness.writeToken, name: "p_slow"))
        let text = Self.read(client) { $0.contains("notifications/progress") }
        #expect(text.contains("Content-Type: text/event-stream"), "\(text)")
        #expect(text.contains(#""progressToken":"p1""#))
        shutdown(client.descriptor, Int32(SHUT_RDWR))
        var waited = 0
        while !harness.backend.events.contains("slow cancelled"), waited < 100 {
            usleep(50_000)
            waited += 1
        }
        #expect(harness.backend.events.contains("slow cancelled"), "closing the stream cancelled the call")
    }

    @Test func anInitializeSessionLivesUntilDeleted() throws {
        let harness = try Harness()
        let initialize = try harness.send(Self.post(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}"#,
            token: harness.writeToken, headers: ["MCP-Protocol-Version": nil], method: "initialize", name: nil))
        #expect(initialize.status == 200)
        let session = try #require(initialize.field("mcp-session-id"))
        let list = try harness.send(Self.post(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, token: harness.writeToken,
                                              headers: ["Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"], method: "tools/list", name: nil))
        #expect(list.status == 200)
        #expect(try JSONValue(parsing: list.body)["result"]?["tools"]?.arrayValue?.count == 3)
        // Another token cannot use it.
        let stolen = try harness.send(Self.post(#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#, token: harness.readToken,
                                                headers: ["Mcp-Session-Id": session], method: "tools/list", name: nil))
        #expect(stolen.status == 404)
        let delete = try harness.send("DELETE /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(harness.writeToken)\r\nMcp-Session-Id: \(session)\r\n\r\n")
        #expect(delete.status == 204)
        let after = try harness.send(Self.post(#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#, token: harness.writeToken,
                                               headers: ["Mcp-Session-Id": session], method: "tools/list", name: nil))
        #expect(after.status == 404)
    }

    @Test func theProtectedResourceMetadataNamesTheResourceAndItsAuthorizationServers() throws {
        var http = MCPHTTPConfiguration()
        http.resource = "https://mcp.example.com/mcp"
        http.authorizationServers = ["https://login.example.com"]
        let harness = try Harness(http: http)
        let response = try harness.send("GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.status == 200)
        let document = try JSONValue(parsing: response.body)
        #expect(document["resource"] == "https://mcp.example.com/mcp")
        #expect(document["authorization_servers"] == ["https://login.example.com"])
        #expect(document["bearer_methods_supported"] == ["header"])
        let challenge = try harness.send(Self.post(Self.call("p_echo"), token: nil)).field("www-authenticate")
        #expect(challenge?.contains(#"resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#) == true)
    }
}
