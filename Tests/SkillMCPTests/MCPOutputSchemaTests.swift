import SkillCalls
import SkillAgent
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// A skill whose manifest declares `output_schema`: served as the tool's `outputSchema`, and a result that
/// does not conform is returned with `isError: true` and a one-line reason (the spec requires conforming
/// `structuredContent` from a tool that declares one).
@Suite struct MCPOutputSchemaTests {
    static let schema: JSONValue = [
        "type": "object", "properties": ["text": ["type": "string"]], "required": ["text"],
    ]

    static func tool(_ id: String, outputSchema: JSONValue?) -> SkillTool {
        var tool = MCPTestSupport.tool(id)
        tool.skill.outputSchema = outputSchema
        return tool
    }

    @Test func toolsListServesOutputSchemaOnlyWhenDeclared() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(
            FakeBackend([Self.tool("p.echo", outputSchema: Self.schema), Self.tool("q.echo", outputSchema: nil)]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        let tools = try #require(try await sent.response(1)["result"]?["tools"]?.arrayValue)
        #expect(tools[0]["name"] == "p.echo")
        #expect(tools[0]["outputSchema"] == Self.schema)
        #expect(tools[1]["name"] == "q.echo")
        #expect(tools[1]["outputSchema"] == nil)
    }

    @Test func conformingResultIsStructuredContent() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([Self.tool("p.echo", outputSchema: Self.schema)]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.echo","arguments":{"text":"hi"}}}"#)
        let result = try #require(try await sent.response(1)["result"])
        #expect(result["isError"] == false)
        #expect(result["structuredContent"] == ["text": "hi"])
    }

    @Test func nonConformingResultIsAnErrorNamingThePointer() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([Self.tool("p.echo", outputSchema: Self.schema)]), sent: sent)
        MCPTestSupport.handshake(server)
        // The fake echoes its arguments: {"text": 5} breaks the output schema, {} misses "text".
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p.echo","arguments":{"text":5}}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"p.echo","arguments":{}}}"#)
        for id: JSONValue in [1, 2] {
            let result = try #require(try await sent.response(id)["result"])
            #expect(result["isError"] == true)
            #expect(result["structuredContent"] == nil)
            let text = try #require(result["content"]?.arrayValue?.first?["text"]?.stringValue)
            #expect(text.hasPrefix("invalidResult: skill p.echo returned a result that does not match its output_schema"))
            #expect(!text.contains("\n"))
            #expect(text.contains(id == 1 ? "`/text`" : "text"))
        }
    }

    @Test func resultSchemaCheckRefusesANonObject() {
        var skill = Self.tool("p.echo", outputSchema: Self.schema).skill
        let check = ResultSchemaCheck()
        #expect(check.problem(with: ["text": "ok"], of: skill) == nil)
        #expect(check.problem(with: [1, 2], of: skill)?.contains("promises an object") == true)
        skill.outputSchema = nil
        #expect(check.problem(with: [1, 2], of: skill) == nil)
    }
}
