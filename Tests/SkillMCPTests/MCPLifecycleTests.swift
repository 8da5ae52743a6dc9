import SkillJSON
import SkillMCP
import Testing

/// initialize / initialized / ping / server/discover, and the JSON-RPC error paths.
@Suite struct MCPLifecycleTests {
    @Test(arguments: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    func initializeAnswersWithTheClientsSupportedVersion(_ version: String) async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"\#(version)","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
        let result = try await sent.response(1)["result"]
        #expect(result?["protocolVersion"] == .string(version))
        #expect(result?["serverInfo"]?["name"] == "skillhost")
        #expect(result?["capabilities"]?["tools"]?["listChanged"] == true)
        #expect(result?["capabilities"]?["extensions"]?["io.modelcontextprotocol/skills"]?["directoryRead"] == true)
    }

    @Test func initializeAnswersAnUnknownVersionWithTheLatest() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{}}}"#)
        #expect(try await sent.response(1)["result"]?["protocolVersion"] == "2025-11-25")
        // A second initialize on the same connection is refused.
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#)
        #expect(try await sent.response(2)["error"]?["code"] == .int(-32600))
    }

    @Test func aRequestBeforeInitializeIsAnErrorButPingAndDiscoverAreAnswered() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("a.echo")]), sent: sent)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a.echo"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"server/discover"}"#)
        let first = try await sent.response(1)
        #expect(first["error"]?["code"] == .int(-32600))
        #expect(first["error"]?["message"]?.stringValue?.contains("initialize") == true)
        #expect(try await sent.response(2)["error"]?["code"] == .int(-32600))
        #expect(try await sent.response(3)["result"] == .object([:]))
        let discover = try await sent.response(4)["result"]
        #expect(discover?["supportedVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        #expect(discover?["serverInfo"]?["name"] == "skillhost")
        #expect(discover?["capabilities"]?["tools"] != nil)
    }

    @Test func malformedLinesAreAnsweredAndTheServerKeepsServing() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive("{not json")
        server.receive("[1,2]")
        server.receive(#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#)
        server.receive(#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#)
        server.receive(#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"tools/call","params":{"name":"a"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
        _ = try await sent.response(8)
        let errors = sent.messages.compactMap { $0["error"] }
        #expect(errors.map { $0["code"] } == [.int(-32700), .int(-32600), .int(-32600), .int(-32600), .int(-32600)])
        #expect(errors[3]["message"] == #""id" is a boolean; use a string or an integer"#)
        // A 20-digit id used to trap in the tools/call shortcut (Tests/Fuzz/regressions/mcp-diff/).
        #expect(errors[4]["message"]?.stringValue?.hasPrefix(#""id" 1e+20 is not an integer from -2^63"#) == true, "\(errors[4])")
        #expect(errors[0]["message"]?.stringValue?.contains("line 1, column 2") == true)
        #expect(sent.messages.contains { $0["id"] == .int(7) && $0["error"] != nil })
    }

    @Test func unknownMethodsAndBadParamsHaveTheirCodes() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
        #expect(try await sent.response(1)["error"]?["code"] == .int(-32602))
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"prompts/list"}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"elsewhere:3"}}"#)
        #expect(try await sent.response(2)["error"]?["code"] == .int(-32601))
        #expect(try await sent.response(3)["error"]?["code"] == .int(-32602))
        #expect(try await sent.response(4)["error"]?["code"] == .int(-32602))
    }

    @Test func notificationsAreNeverAnswered() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#)
        server.receive(#"{"jsonrpc":"2.0","method":"no/such/notification"}"#)
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":5,"result":{}}"#)  // a response to nothing
        server.receive(#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)
        _ = try await sent.response(9)
        #expect(sent.messages.count == 2)  // initialize's answer and ping's
    }
}
