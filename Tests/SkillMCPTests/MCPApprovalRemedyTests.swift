import SkillCalls
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// A refusal's remedy names the registry member that really holds the skill's approval: a plugin skill's
/// under `plugins`, an MCP server's tool's under `mcp_servers` (it named `plugins.SERVER.skills…`, which the
/// registry's check then refuses as an unknown plugin).
@Suite("Approval remedies name where the skill's approval lives")
struct MCPApprovalRemedyTests {
    let policy = MCPApprovalPolicy(allowWrites: false, registryPath: "/home/u/.config/skillhost/skill_registry.json")

    func serverTool(annotations: JSONValue) throws -> SkillDescription {
        let entry = MCPServerEntry(name: "git", transport: .stdio(command: "/usr/bin/mcp-server-git", arguments: []))
        let listing: [JSONValue] = [[
            "name": "git_commit", "description": "Records changes", "annotations": annotations,
            "inputSchema": ["type": "object", "properties": ["message": ["type": "string"]]],
        ]]
        return try #require(MCPRemoteTool.tools(from: listing, server: entry).tools.first).skill
    }

    @Test("an MCP server's write tool: mcp_servers.NAME.tools.ID")
    func serverToolRemedy() throws {
        let skill = try serverTool(annotations: [:])
        #expect(skill.settingPath("approval") == "mcp_servers.git.tools.git.git_commit.approval")
        let text = try #require(policy.refusal(of: ApprovalRequest(skill: skill, arguments: [:])))
        #expect(text.contains("at mcp_servers.git.tools.git.git_commit in /home/u/.config/skillhost/skill_registry.json"), "\(text)")
        #expect(!text.contains("plugins."), "\(text)")
        let dangerous = try #require(policy.refusal(of: ApprovalRequest(skill: try serverTool(annotations: ["destructiveHint": true]), arguments: [:])))
        #expect(dangerous.contains("mcp_servers.git.tools.git.git_commit"), "\(dangerous)")
        let terminal = try #require(DenyAllApproval().refusal(of: ApprovalRequest(skill: skill, arguments: [:])))
        #expect(terminal.contains("set mcp_servers.git.tools.git.git_commit.approval to \"allow\""), "\(terminal)")
    }

    @Test("a plugin's skill: plugins.P.skills.ID, as before")
    func pluginSkillRemedy() throws {
        let skill = SkillDescription(
            id: "reminders.add", title: "Add", description: "Adds a reminder", parameters: ["type": "object"],
            permission: .write, timeout: 10, idempotent: false, examples: [], pluginID: "reminders",
            pluginPath: "/p/reminders.so", enabled: true, approval: .ask)
        #expect(skill.settingPath("approval") == "plugins.reminders.skills.reminders.add.approval")
        let text = try #require(policy.refusal(of: ApprovalRequest(skill: skill, arguments: [:])))
        #expect(text.contains("at plugins.reminders.skills.reminders.add in"), "\(text)")
    }
}
