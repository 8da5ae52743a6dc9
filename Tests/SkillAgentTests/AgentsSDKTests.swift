import Foundation
import SkillJSON
import Testing

/// A real agent framework in front of `skillhost mcp`: the OpenAI Agents SDK (PyPI `openai-agents`, installed by
/// the test into `.build/peers/agents`) with `MCPServerStdio(skillhost mcp)`, against the scripted
/// OpenAI-compatible server, plain and with `convert_schemas_to_strict=True` (Tests/Peers/agents_sdk_mcp.py):
/// every tool reaches the model under a name its API accepts, strict conversion succeeds for every bundled tool
/// (optional members accept null), and the model's call — with `null` for what it leaves out, as strict models
/// do — runs the skill.
@Suite(.serialized) struct AgentsSDKTests {
    static let peer = PythonVirtualEnvironment(name: "agents", packages: ["openai-agents==0.24.0"], probe: "import agents.mcp")

    static func completion(_ message: JSONValue, finish: String) -> ReplayServer.Response {
        let body: JSONValue = [
            "id": "chatcmpl-sdk", "object": "chat.completion", "created": 1_795_000_001, "model": "gpt-4o-mini",
            "choices": [["index": 0, "message": message, "finish_reason": .string(finish)]],
            "usage": ["prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110],
        ]
        return ReplayServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.serialized().utf8), pieceSize: 0)
    }

    static func toolCall(_ arguments: JSONValue) -> ReplayServer.Response {
        completion([
            "role": "assistant", "content": .null,
            "tool_calls": [["id": "call_sdk1", "type": "function", "function": ["name": "calendar_find_free_slots", "arguments": .string(arguments.serialized())]]],
        ], finish: "tool_calls")
    }

    @Test(.timeLimit(.minutes(4)), arguments: ["plain", "strict"])
    func theAgentsSDKListsAndCallsTheTools(_ mode: String) throws {
        let python = try Self.peer.python()
        let root = TestPackage.temporaryDirectory("skillhost-agents-sdk")
        for folder in ["plugins", "config", "cache", "skills"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for plugin in ["CalendarSkill", "ClockSkill", "RemindersSkill", "TextSkill", "FilesSkill"] {
            try FileManager.default.copyItem(atPath: TestPackage.buildDirectory + "/lib\(plugin).so", toPath: root + "/plugins/lib\(plugin).so")
        }
        // A strict model fills every member and says null for what it leaves out; a plain one leaves it out.
        let arguments: JSONValue = mode == "strict"
            ? ["date": .null, "part_of_day": .null, "from": "2036-12-01T09:00", "to": "2036-12-01T17:00", "working_hours_start": .null,
               "working_hours_end": .null, "min_minutes": .null]
            : ["date": "2036-12-01", "part_of_day": "morning"]
        let server = try ReplayServer([
            Self.toolCall(arguments),
            Self.completion(["role": "assistant", "content": "You are free all day."], finish: "stop"),
        ], lifetime: 120)
        defer { server.stop() }
        let script = TestPackage.root + "/Tests/Peers/agents_sdk_mcp.py"
        let result = try TestProcess.run(python, [script, try TestPackage.skillhostBinary(), root, server.baseURL, mode])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr.suffix(3000))")
        #expect(result.stdout.contains("final: You are free all day."), "\(result.stdout)\n\(result.stderr.suffix(2000))")

        let requests = server.requests
        try #require(requests.count == 2, "\(requests.count) requests")
        let tools = try #require(requests[0].body?["tools"]?.arrayValue)
        let names = tools.compactMap { $0["function"]?["name"]?.stringValue }
        #expect(names.contains("calendar_find_free_slots") && names.contains("clock_now"), "\(names)")
        #expect(names.allSatisfy { $0.range(of: "^[a-zA-Z0-9_-]{1,64}$", options: .regularExpression) != nil }, "\(names)")
        if mode == "strict" {
            for tool in tools {
                let function = tool["function"]
                let name = function?["name"]?.stringValue ?? "?"
                #expect(function?["strict"] == true, "\(name) was converted to strict mode")
                let properties = function?["parameters"]?["properties"]?.objectValue?.keys.sorted() ?? []
                let required = function?["parameters"]?["required"]?.arrayValue?.compactMap(\.stringValue).sorted() ?? []
                #expect(properties == required, "\(name): every member required in strict mode")
            }
        }
        // The tool's answer the SDK sent back: the skill ran (no error, the free time of that day).
        let messages = try #require(requests[1].body?["messages"]?.arrayValue)
        let content = try #require(messages.first { $0["role"] == "tool" }?["content"])
        // A string, or text parts.
        let answer = content.stringValue ?? (content.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined()
        #expect(answer.contains("free slot") && answer.contains("2036-12-01"), "\(answer)")
        #expect(answer.contains(mode == "strict" ? "09:00–17:00" : "09:00–12:00"), "the call ran with the arguments given: \(answer)")
    }
}
