import SkillCalls
import SkillAgent
import SkillJSON
import SkillMCP
import Testing

/// tools/list and tools/call over an in-memory backend: entries, pagination, results, errors, approval,
/// concurrency, cancellation, progress and list_changed.
@Suite struct MCPToolTests {
    @Test func toolsListHasEntriesWithAnnotationsAndPages() async throws {
        let sent = SentLines()
        let backend = FakeBackend([
            MCPTestSupport.tool("p.read"), MCPTestSupport.tool("p.write", permission: .write),
            MCPTestSupport.tool("p.zap", permission: .dangerous),
        ])
        let server = MCPTestSupport.server(backend, sent: sent, pageSize: 2)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        let first = try #require(try await sent.response(1)["result"])
        let page1 = try #require(first["tools"]?.arrayValue)
        #expect(page1.map { $0["name"] } == ["p.read", "p.write"])
        let cursor = try #require(first["nextCursor"]?.stringValue)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"\#(cursor)"}}"#)
        let second = try #require(try await sent.response(2)["result"])
        #expect(second["tools"]?.arrayValue?.map { $0["name"] } == ["p.zap"])
        #expect(second["nextCursor"] == nil)

        let read = page1[0]
        #expect(read["title"] == "Title of p.read")
        #expect(read["description"] == "Does p.read.")
        #expect(read["inputSchema"]?["type"] == "object")
        #expect(read["annotations"]?["readOnlyHint"] == true)
        #expect(read["annotations"]?["destructiveHint"] == false)
        #expect(read["annotations"]?["idempotentHint"] == true)
        #expect(page1[1]["annotations"]?["readOnlyHint"] == false)
        #expect(page1[1]["annotations"]?["destructiveHint"] == false)
        let zap = try #require(second["tools"]?.arrayValue?.first)
        #expect(zap["annotations"]?["destructiveHint"] == true)
        #expect(zap["annotations"]?["idempotentHint"] == false)
    }

    @Test func callResultsUseTheSummaryTemplateAndStructuredContent() async throws {
        let sent = SentLines()
        let backend = FakeBackend([MCPTestSupport.tool("p.echo", summary: "You said {text}."), MCPTestSupport.tool("q.echo")])
        let server = MCPTestSupport.server(backend, sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.echo","arguments":{"text":"hi"}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"q.echo","arguments":{"text":"hi"}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"p.echo","arguments":{}}}"#)
        let templated = try #require(try await sent.response(1)["result"])
        #expect(templated["content"]?.arrayValue?.first?["text"] == "You said hi.")
        #expect(templated["structuredContent"] == ["text": "hi"])
        #expect(templated["isError"] == false)
        let plain = try #require(try await sent.response(2)["result"])
        #expect(plain["content"]?.arrayValue?.first?["text"] == #"{"text":"hi"}"#)
        // A template whose field is missing falls back to the JSON.
        #expect(try await sent.response(3)["result"]?["content"]?.arrayValue?.first?["text"] == "{}")
    }

    @Test func unknownToolsAreErrorsAndBadArgumentsAreToolResults() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("p.bad"), MCPTestSupport.tool("p.echo")]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.nothing","arguments":{}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p.bad","arguments":{"count":"x"}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"p.echo","arguments":[1]}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"p.ecoh","arguments":{}}}"#)
        let unknown = try await sent.response(1)
        #expect(unknown["error"]?["code"] == .int(-32602))
        #expect(unknown["error"]?["message"]?.stringValue?.contains("p.nothing") == true)
        #expect(unknown["error"]?["message"]?.stringValue?.contains("did you mean") == false)
        // A slip in a served name gets the name it most likely meant, for the model to retry with.
        let typo = try await sent.response(4)
        #expect(typo["error"]?["message"]?.stringValue?.contains(#"unknown tool "p.ecoh"; did you mean "p.echo"?"#) == true, "\(typo)")
        let bad = try #require(try await sent.response(2)["result"])
        #expect(bad["isError"] == true)
        let text = try #require(bad["content"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(text.contains("/count must be an integer") && text.contains("inputSchema"))
        let array = try #require(try await sent.response(3)["result"])
        #expect(array["isError"] == true)
        #expect(array["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("array") == true)
    }

    @Test func writesNeedTheFlagAndDangerousSkillsTheirOwnEntry() async throws {
        let tools = [MCPTestSupport.tool("p.write", permission: .write), MCPTestSupport.tool("p.zap", permission: .dangerous)]
        let sent = SentLines()
        let strict = MCPTestSupport.server(FakeBackend(tools), sent: sent)
        MCPTestSupport.handshake(strict)
        strict.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.write","arguments":{}}}"#)
        let refused = try #require(try await sent.response(1)["result"])
        #expect(refused["isError"] == true)
        let text = try #require(refused["content"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(text.contains("'skillhost mcp --allow-writes'"))
        #expect(text.contains(#"set "approval": "allow" at plugins.p.skills.p.write in /tmp/reg.json"#))

        let sentAllowing = SentLines()
        let allowing = MCPTestSupport.server(FakeBackend(tools), sent: sentAllowing, allowWrites: true)
        MCPTestSupport.handshake(allowing)
        allowing.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.write","arguments":{"text":"x"}}}"#)
        allowing.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p.zap","arguments":{}}}"#)
        #expect(try await sentAllowing.response(1)["result"]?["isError"] == false)
        let zap = try #require(try await sentAllowing.response(2)["result"])
        #expect(zap["isError"] == true)
        let zapText = try #require(zap["content"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(zapText.contains("plugins.p.skills.p.zap") && zapText.contains("--allow-writes does not cover"))
    }

    @Test func callsRunConcurrentlyAndAnswerOutOfOrder() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("p.slow"), MCPTestSupport.tool("p.echo")]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":"fast","method":"tools/call","params":{"name":"p.echo","arguments":{"n":1}}}"#)
        _ = try await sent.response("fast")
        #expect(!sent.messages.contains { $0["id"] == "slow" })
        // Cancelling the slow call stops it and sends no answer for it.
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"user"}}"#)
        await server.finish()
        #expect(!sent.messages.contains { $0["id"] == "slow" })
    }

    @Test func callsOfAGroupWaitForItsLimitAndCancelledWaitersLeave() async throws {
        let sent = SentLines()
        let one = CallLimit(group: "p", limit: 1)
        let backend = FakeBackend([MCPTestSupport.tool("p.slow"), MCPTestSupport.tool("p.echo"), MCPTestSupport.tool("q.echo")],
                                  limits: ["p.slow": one, "p.echo": one])
        let server = MCPTestSupport.server(backend, sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        for _ in 0..<400 where !backend.events.contains("slow started") { try await Task.sleep(for: .milliseconds(5)) }
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"p.echo","arguments":{}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"q.echo","arguments":{}}}"#)
        _ = try await sent.response(4)  // another group is not held up
        try await Task.sleep(for: .milliseconds(100))
        #expect(!sent.messages.contains { $0["id"] == .int(3) })  // waits behind the running slow call
        #expect(backend.events == ["slow started"])
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#)  // a waiter
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#)  // the runner
        _ = try await sent.response(3)
        await server.finish()
        #expect(backend.events == ["slow started", "slow cancelled"])  // the cancelled waiter never ran
    }

    @Test func aPipelinedBurstThroughALimitOfOneIsAnsweredInFull() async throws {
        let sent = SentLines()
        let backend = FakeBackend([MCPTestSupport.tool("p.echo")], limits: ["p.echo": CallLimit(group: "p", limit: 1)])
        let server = MCPTestSupport.server(backend, sent: sent)
        MCPTestSupport.handshake(server)
        for id in 0..<700 {
            server.receive(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"p.echo","arguments":{"n":\#(id)}}}"#)
        }
        await server.finish()
        let answers = sent.messages.filter { $0["result"] != nil && $0["id"]?.intValue != nil }
        #expect(answers.count == 700)
        #expect(answers.allSatisfy { $0["result"]?["structuredContent"]?["n"] == $0["id"] })
    }

    @Test func anIDAlreadyInFlightIsRefused() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("p.slow")]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        let refused = try await sent.response(5)
        #expect(refused["error"]?["code"] == .int(-32600))
        #expect(refused["error"]?["message"]?.stringValue?.contains("already in flight") == true)
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#)
        await server.finish()
        #expect(sent.messages.filter { $0["id"] == .int(5) }.count == 1)  // the first call was cancelled, unanswered
    }

    @Test func cancellationReachesTheBackend() async throws {
        let sent = SentLines()
        let backend = FakeBackend([MCPTestSupport.tool("p.slow")])
        let server = MCPTestSupport.server(backend, sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        for _ in 0..<400 where !backend.events.contains("slow started") { try await Task.sleep(for: .milliseconds(5)) }
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#)
        await server.finish()
        #expect(backend.events == ["slow started", "slow cancelled"])
        #expect(!sent.messages.contains { $0["id"] == .int(7) })
        server.receive(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
        _ = try await sent.response(8)
    }

    @Test func longCallsWithAProgressTokenGetProgressNotifications() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("p.slow")]), sent: sent, progress: .milliseconds(50))
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.slow","arguments":{},"_meta":{"progressToken":"tok"}}}"#)
        let first = try await sent.first { $0["method"] == "notifications/progress" }
        #expect(first["params"]?["progressToken"] == "tok")
        #expect(first["params"]?["message"]?.stringValue?.contains("p.slow") == true)
        _ = try await sent.first { $0["method"] == "notifications/progress" && $0["params"]?["progress"] != first["params"]?["progress"] }
        let progress = sent.messages.filter { $0["method"] == "notifications/progress" }.compactMap { $0["params"]?["progress"]?.doubleValue }
        #expect(progress == progress.sorted() && Set(progress).count == progress.count)  // strictly increasing
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#)
        await server.finish()
    }

    @Test func toolListChangesAreNotifiedOnlyWhenTheyHappen() async throws {
        let sent = SentLines()
        let backend = FakeBackend([MCPTestSupport.tool("p.echo")])
        let server = MCPTestSupport.server(backend, sent: sent)
        server.refresh()  // the baseline, before the client is ready: nothing is sent
        MCPTestSupport.handshake(server)
        server.refresh()  // nothing changed
        backend.setTools([])
        server.refresh()
        let changes = sent.messages.filter { $0["method"] == "notifications/tools/list_changed" }
        #expect(changes.count == 1)
        #expect(!sent.messages.contains { $0["method"] == "notifications/resources/list_changed" })
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        #expect(try await sent.response(1)["result"]?["tools"] == [])
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p.echo","arguments":{}}}"#)
        #expect(try await sent.response(2)["error"]?["code"] == .int(-32602))
    }
}
