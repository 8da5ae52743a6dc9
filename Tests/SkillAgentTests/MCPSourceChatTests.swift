import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// A chat turn (issue #35) against a scripted OpenAI-compatible server whose one reply calls an MCP server's
/// tool (`mcp-server-time` from PyPI, added with `skillhost add-mcp`) and a native skill (the fixture
/// plugin's `fixture.note`) together; both run through the one tool-call path and their results reach the
/// model.
@Suite(.serialized) struct MCPSourceChatTests {
    static let time = PythonVirtualEnvironment(name: "mcp-server-time", packages: ["mcp-server-time"], probe: "import mcp_server_time")

    static func reply(_ message: String) -> ReplayServer.Response {
        .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(message.utf8), pieceSize: 0)
    }

    /// The fixture host with `mcp-server-time` added as the MCP server `time`.
    static func hostWithTime() throws -> (host: SkillHost, root: String) {
        _ = try time.python()
        let (host, root) = try HostTestSupport.fixtureHost()
        // The folders go first: every word after `--` is the server's.
        let added = try HostTestSupport.run(try TestPackage.skillhostBinary(), [
            "add-mcp", "time", "--registry", root + "/config/skill_registry.json", "--plugins", root + "/plugins",
            "--", time.folder + "/bin/mcp-server-time",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        return (host, root)
    }

    @Test(.timeLimit(.minutes(5))) func oneReplyCallsAnMCPToolAndANativeSkill() throws {
        let (_, root) = try Self.hostWithTime()
        func call(_ id: String, _ name: String, _ arguments: JSONValue) -> String {
            #"{"id":"\#(id)","type":"function","function":{"name":"\#(name)","arguments":\#(JSONValue.string(arguments.serialized()).serialized())}}"#
        }
        let server = try ReplayServer([
            Self.reply(#"{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":["#
                + call("call_1", "time_get_current_time", ["timezone": "Asia/Tokyo"]) + ","
                + call("call_2", "fixture_note", ["text": "tea at five"]) + "]}}]}"),
            Self.reply(#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Noted; it is evening in Tokyo."}}]}"#),
        ], lifetime: 120)
        defer { server.stop() }
        let chat = try HostTestSupport.skillhost(
            ["chat", "--json", "--yes", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "note tea, and the time in Tokyo"],
            root: root)
        #expect(chat.status == 0, "\(chat.stderr)")
        let offered = server.requests.first?.body?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } ?? []
        #expect(offered.contains("time_get_current_time") && offered.contains("fixture_note"), "\(offered)")
        let events = chat.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        let succeeded = events.filter { $0["event"] == "skillSucceeded" }.compactMap { $0["skill"]?.stringValue }
        #expect(Set(succeeded) == ["time.get_current_time", "fixture.note"], "\(chat.stdout)")
        // What the model got back for the MCP tool: the server's structured result.
        let messages = server.requests.last?.body?["messages"]?.arrayValue ?? []
        let toolResults = messages.filter { $0["role"] == "tool" }.compactMap { $0["content"]?.stringValue }
        #expect(toolResults.contains { $0.contains("Asia/Tokyo") && $0.contains("+09:00") }, "\(toolResults)")
        // The history records the MCP tool's call under its skill id, as the native skill's (not its wire name).
        let trace = try HostTestSupport.skillhost(["trace", "--json"], root: root)
        let recorded = (try? JSONValue(parsing: trace.stdout))?.arrayValue?.compactMap { $0["skill"]?.stringValue } ?? []
        #expect(Set(recorded) == ["time.get_current_time", "fixture.note"], "\(trace.stdout)")
    }
}
