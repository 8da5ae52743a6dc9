import Foundation
import SkillJSON
import Testing

/// An installed workflow from `chat` (docs/workflows.md): a scripted model server calls the tool
/// `workflow_morning-briefing`; the agent runs the whole graph through the one tool-call path and hands
/// the model the run's outputs.
@Suite(.serialized) struct ChatWorkflowTests {
    @Test func aModelCallsAnInstalledWorkflow() throws {
        let root = HostTestSupport.temporaryDirectory("skillhost-chat-workflow")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        for product in ["ClockSkill", "CalendarSkill", "RemindersSkill", "TextSkill"] {
            try FileManager.default.copyItem(atPath: "\(TestPackage.buildDirectory)/lib\(product).so", toPath: "\(root)/plugins/lib\(product).so")
        }
        let installed = try HostTestSupport.skillhost(["workflow", "install", TestPackage.root + "/docs/examples/morning-briefing.yaml"], root: root)
        #expect(installed.status == 0, "\(installed.stderr)")
        let server = try ReplayServer([
            ScriptChatTests.toolCall("call_1", "workflow_morning-briefing", ["zone": "UTC"]),
            ScriptChatTests.reply(#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Your briefing is ready."}}]}"#),
        ], lifetime: 120)
        defer { server.stop() }
        let chat = try HostTestSupport.skillhost(
            ["chat", "--json", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "give me my morning briefing"], root: root)
        #expect(chat.status == 0, "\(chat.stderr)")
        let offered = server.requests.first?.body?["tools"]?.arrayValue ?? []
        let tool = try #require(offered.first { $0["function"]?["name"] == "workflow_morning-briefing" }, "\(offered.map { $0["function"]?["name"] ?? .null })")
        #expect(tool["function"]?["parameters"]?["properties"]?["zone"]?["type"] == "string")
        let sent = try #require(server.requests.last?.body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        let result = try JSONValue(parsing: sent)
        #expect(result["state"] == "done", "\(sent.prefix(300))")
        #expect(result["outputs"]?["now"]?["timezone"] == "UTC")
        #expect(result["outputs"]?["summary"] != nil)
    }
}
