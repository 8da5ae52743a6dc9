import Foundation
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// The 2026-07-28 revision on a server without `initialize` (as stdio carries it, line by line): every
/// request's `_meta` envelope, `resultType`, `ttlMs`/`cacheScope` on cacheable results, the stable
/// `tools/list` order, `skills/list` sizes, the reserved codes, `--tool-names`, and approval through
/// `input_required` with a sealed `requestState` that only fits its own call.
@Suite struct MCPStatelessRevisionTests {
    static let capabilities = #"{"elicitation":{"form":{}}}"#

    static func meta(_ capabilities: String = "{}", version: String = "2026-07-28") -> String {
        #""_meta":{"io.modelcontextprotocol/protocolVersion":"\#(version)","io.modelcontextprotocol/clientCapabilities":\#(capabilities)}"#
    }

    static func request(_ id: Int, _ method: String, _ params: String = "", capabilities: String = "{}") -> String {
        let inner = params.isEmpty ? meta(capabilities) : params + "," + meta(capabilities)
        return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{\#(inner)}}"#
    }

    /// Tools given out of order, one of them a write skill.
    static func backend() -> FakeBackend {
        FakeBackend([MCPTestSupport.tool("zeta.echo"), MCPTestSupport.tool("alpha.note", permission: .write), MCPTestSupport.tool("mid.echo")])
    }

    static func server(_ sent: SentLines, naming: MCPToolNaming = .portable, key: [UInt8] = Array(repeating: 7, count: 32)) -> MCPServer {
        var configuration = MCPServerConfiguration(approval: MCPApprovalPolicy(allowWrites: false, registryPath: "/tmp/reg.json"))
        configuration.toolNames = naming
        configuration.requestStateKey = key
        return MCPServer(configuration: configuration, backend: backend(), skills: FolderSkillSource(root: try! SkillsExtensionTests.makeSkills()), send: sent.sink)
    }

    @Test func listsAreCompleteCacheableAndInTheOrderOfSkillIDs() async throws {
        let sent = SentLines()
        let server = Self.server(sent)
        server.receive(Self.request(1, "tools/list"))
        let result = try #require(try await sent.response(1)["result"])
        #expect(result["resultType"] == "complete")
        #expect(result["ttlMs"] == .int(30_000) && result["cacheScope"] == "public")
        #expect(result["tools"]?.arrayValue?.map { $0["name"] } == ["alpha_note", "mid_echo", "zeta_echo"])
        #expect(result["tools"]?.arrayValue?.first?["_meta"]?[MCPToolCatalog.skillIDMetaKey] == "alpha.note")
        #expect(result["tools"]?.arrayValue?.first?["title"] == "Title of alpha.note (alpha.note)")
        server.receive(Self.request(2, "skills/list"))
        let skills = try #require(try await sent.response(2)["result"])
        #expect(skills["ttlMs"] == .int(30_000) && skills["cacheScope"] == "public" && skills["resultType"] == "complete")
        let resources = try #require(skills["skills"]?.arrayValue?.first?["resources"]?.arrayValue)
        let sizes = Dictionary(uniqueKeysWithValues: resources.map { ($0["uri"]?.stringValue ?? "", $0["size"]) })
        #expect(sizes["skill://alpha/assets.bin"] == .int(3) && sizes["skill://alpha/references/GUIDE.md"] == .int(5), "\(sizes)")
        server.receive(Self.request(3, "server/discover"))
        let discovered = try #require(try await sent.response(3)["result"])
        #expect(discovered["supportedVersions"]?.arrayValue?.first == "2026-07-28")
        #expect(discovered["ttlMs"] == .int(30_000) && discovered["cacheScope"] == "public")
        // A call's result is complete but not cacheable.
        server.receive(Self.request(4, "tools/call", #""name":"zeta_echo","arguments":{"text":"hi"}"#))
        let called = try #require(try await sent.response(4)["result"])
        #expect(called["resultType"] == "complete" && called["ttlMs"] == nil && called["structuredContent"]?["text"] == "hi")
    }

    @Test func toolNamesIDsServesTheDottedIDsAndBothNamesResolve() async throws {
        let sent = SentLines()
        let server = Self.server(sent, naming: .ids)
        server.receive(Self.request(1, "tools/list"))
        #expect(try await sent.response(1)["result"]?["tools"]?.arrayValue?.map { $0["name"] } == ["alpha.note", "mid.echo", "zeta.echo"])
        server.receive(Self.request(2, "tools/call", #""name":"mid_echo","arguments":{"text":"portable"}"#))
        server.receive(Self.request(3, "tools/call", #""name":"mid.echo","arguments":{"text":"id"}"#))
        #expect(try await sent.response(2)["result"]?["structuredContent"]?["text"] == "portable")
        #expect(try await sent.response(3)["result"]?["structuredContent"]?["text"] == "id")
    }

    @Test func anUnservedVersionOrAnIncompleteEnvelopeHasItsCode() async throws {
        let sent = SentLines()
        let server = Self.server(sent)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(Self.meta(version: "2099-01-01"))}}"#)
        let unserved = try #require(try await sent.response(1)["error"])
        #expect(unserved["code"] == -32022)
        #expect(unserved["data"]?["supported"] == ["2026-07-28"] && unserved["data"]?["requested"] == "2099-01-01")
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#)
        let incomplete = try #require(try await sent.response(2)["error"])
        #expect(incomplete["code"] == -32602)
        #expect(incomplete["message"]?.stringValue?.contains("clientCapabilities") == true)
        // Without an envelope and without initialize: refused, with the two ways to speak.
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)
        #expect(try await sent.response(3)["error"]?["code"] == -32600)
    }

    /// Asks for approval of `alpha_note` with `arguments`; returns the sealed state.
    static func ask(_ server: MCPServer, _ sent: SentLines, id: Int, arguments: String = #"{"text":"x"}"#) async throws -> String {
        server.receive(request(id, "tools/call", #""name":"alpha_note","arguments":\#(arguments)"#, capabilities: capabilities))
        let asked = try #require(try await sent.response(.int(Int64(id)))["result"])
        #expect(asked["resultType"] == "input_required")
        #expect(asked["inputRequests"]?["skillhost_approval"]?["method"] == "elicitation/create")
        #expect(asked["inputRequests"]?["skillhost_approval"]?["params"]?["message"]?.stringValue?.contains("alpha.note") == true)
        return try #require(asked["requestState"]?.stringValue)
    }

    static func answer(_ id: Int, state: String, arguments: String = #"{"text":"x"}"#, action: String = #"{"action":"accept","content":{"approve":true}}"#) -> String {
        request(
            id, "tools/call", #""name":"alpha_note","arguments":\#(arguments),"requestState":"\#(state)","inputResponses":{"skillhost_approval":\#(action)}"#,
            capabilities: capabilities)
    }

    @Test func anApprovedRetryRunsOnceAndADeclinedOneRunsNothing() async throws {
        let sent = SentLines()
        let server = Self.server(sent)
        let state = try await Self.ask(server, sent, id: 1)
        server.receive(Self.answer(2, state: state))
        let ran = try #require(try await sent.response(2)["result"])
        #expect(ran["isError"] == false && ran["structuredContent"]?["text"] == "x", "\(ran)")
        server.receive(Self.answer(3, state: state, action: #"{"action":"decline"}"#))
        let declined = try #require(try await sent.response(3)["result"])
        #expect(declined["isError"] == true && declined["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("declined") == true, "\(declined)")
        // A client without elicitation is not asked: the registry's default refuses, with the remedy.
        server.receive(Self.request(4, "tools/call", #""name":"alpha_note","arguments":{"text":"x"}"#))
        let refused = try #require(try await sent.response(4)["result"])
        #expect(refused["resultType"] == "complete" && refused["isError"] == true)
        #expect(refused["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("--allow-writes") == true)
    }

    @Test func aRequestStateFitsOnlyItsOwnCallAndKey() async throws {
        let sent = SentLines()
        let server = Self.server(sent)
        let state = try await Self.ask(server, sent, id: 1)
        var flipped = Array(state)
        flipped[flipped.count - 1] = flipped.last == "0" ? "1" : "0"
        let cases: [(String, String)] = [
            ("changed", Self.answer(2, state: String(flipped))),
            ("other arguments", Self.answer(3, state: state, arguments: #"{"text":"y"}"#)),
            ("not a state", Self.answer(4, state: "v1.garbage")),
        ]
        for (index, (what, line)) in cases.enumerated() {
            server.receive(line)
            let error = try #require(try await sent.response(.int(Int64(index + 2)))["error"], "\(what)")
            #expect(error["code"] == -32602, "\(what)")
            #expect(error["message"]?.stringValue?.contains("call alpha.note again without inputResponses") == true, "\(what): \(error)")
        }
        // Another replica with another key cannot open it; one with the same key can.
        let other = SentLines()
        let stranger = Self.server(other, key: Array(repeating: 8, count: 32))
        stranger.receive(Self.answer(5, state: state))
        #expect(try await other.response(5)["error"]?["code"] == -32602)
        let sibling = SentLines()
        let replica = Self.server(sibling)
        replica.receive(Self.answer(6, state: state))
        #expect(try await sibling.response(6)["result"]?["structuredContent"]?["text"] == "x")
    }

    @Test func verboseLogsOneLinePerRequestWithMethodToolOutcomeAndTime() async throws {
        let sent = SentLines()
        let logged = SentLines()
        var configuration = MCPServerConfiguration(approval: MCPApprovalPolicy(allowWrites: false, registryPath: "/tmp/reg.json"))
        configuration.verbose = true
        let backend = FakeBackend([MCPTestSupport.tool("p.echo"), MCPTestSupport.tool("p.bad")])
        let server = MCPServer(configuration: configuration, backend: backend, send: sent.sink, log: logged.sink)
        server.receive(Self.request(1, "tools/list"))
        server.receive(Self.request(2, "tools/call", #""name":"p_echo","arguments":{"text":"hi"}"#))
        server.receive(Self.request(3, "tools/call", #""name":"p_bad","arguments":{}"#))
        server.receive(Self.request(4, "tools/call", #""name":"p_nothing","arguments":{}"#))
        server.receive(#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{\#(Self.meta(version: "2099-01-01"))}}"#)
        for id in 1...5 { _ = try await sent.response(.int(Int64(id))) }
        await server.finish()
        let expected = [
            "mcp: tools/list ok ", "mcp: tools/call p_echo ok ", "mcp: tools/call p_bad isError ",
            "mcp: tools/call p_nothing error -32602 ", "mcp: tools/list error -32022 ",
        ]
        let lines = logged.raw
        for prefix in expected {
            let matching = lines.filter { $0.hasPrefix(prefix) }
            #expect(matching.count == 1, "one line starting \(prefix): \(lines)")
            #expect(matching.first.map { $0.hasSuffix(" ms") && Double($0.dropFirst(prefix.count).dropLast(3)) != nil } == true, "\(matching)")
        }
        #expect(lines.count == expected.count, "one line per request: \(lines)")
    }

    @Test func aStateExpiresAndBelongsToItsPrincipal() {
        let key = Array(repeating: UInt8(3), count: 32)
        let state = MCPRequestState(skillID: "a.b", arguments: ["n": 1], principal: "laptop", now: 1000)
        let opened = try! #require(MCPRequestState.open(state.sealed(with: key), with: key))
        #expect(opened == state)
        #expect(opened.matches(skillID: "a.b", arguments: ["n": 1], principal: "laptop", now: 1000 + MCPRequestState.lifetime))
        #expect(!opened.matches(skillID: "a.b", arguments: ["n": 1], principal: "laptop", now: 1001 + MCPRequestState.lifetime))
        #expect(!opened.matches(skillID: "a.b", arguments: ["n": 1], principal: "phone", now: 1000))
        #expect(!opened.matches(skillID: "a.c", arguments: ["n": 1], principal: "laptop", now: 1000))
        #expect(MCPRequestState.open(state.sealed(with: key), with: Array(repeating: 4, count: 32)) == nil)
    }
}
