import Foundation
import SkillHostCore
import SkillJSON
import Testing

@Suite("MCP servers in the registry: entries, their checks, secrets only as references")
struct MCPServerEntryTests {
    func read(_ text: String) throws(HostError) -> Registry {
        let path = HostTestSupport.temporaryDirectory() + "/skill_registry.json"
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        return try RegistryStore(path: path).read()
    }

    @Test("a stdio entry reads back with its sandbox members and tool settings")
    func stdioEntry() throws {
        let registry = try read("""
            {"mcp_servers": {"Time": {"command": "/opt/venv/bin/mcp-server-time", "args": ["--local-timezone", "UTC"],
              "env": {"TZ": "UTC", "API_KEY": "${TIME_API_KEY}"}, "files": {"/srv/repo": "read-write"}, "network": [443],
              "tools": {"time.get_current_time": {"permission": "dangerous", "approval": "deny", "timeout": 5}}}}}
            """)
        let entry = try #require(registry.mcpServer("time"))
        #expect(entry.transport == .stdio(command: "/opt/venv/bin/mcp-server-time", arguments: ["--local-timezone", "UTC"]))
        #expect(entry.environment == ["TZ": "UTC", "API_KEY": "${TIME_API_KEY}"])
        #expect(entry.files == [SandboxPolicy.Rule(path: "/srv/repo", access: .readWrite)])
        #expect(entry.network == .tcpConnect([443]))
        #expect(entry.enabled)
        let tool = entry.toolSettings("Time.Get_Current_Time")
        #expect(tool.permission == .dangerous && tool.approval == .deny && tool.timeout == 5)
    }

    @Test("each bad member is refused in one line naming the file, the JSON pointer and the fix", arguments: [
        (#"{"mcp_servers": []}"#, "/mcp_servers must be an object keyed by server name"),
        (#"{"mcp_servers": {"t": {"args": []}}}"#, "/mcp_servers/t needs \"command\""),
        (#"{"mcp_servers": {"t": {"command": "x"}}}"#, "/mcp_servers/t/command must be the absolute path"),
        (#"{"mcp_servers": {"t": {"command": "/x", "url": "http://h/mcp"}}}"#, "has both \"command\" and \"url\""),
        (#"{"mcp_servers": {"t": {"command": "/x", "args": [1]}}}"#, "/mcp_servers/t/args must be an array of strings"),
        (#"{"mcp_servers": {"t": {"command": "/x", "env": {"GITHUB_TOKEN": "ghp_123"}}}}"#, "/mcp_servers/t/env/GITHUB_TOKEN holds a secret written out"),
        (#"{"mcp_servers": {"t": {"command": "/x", "env": {"LD_PRELOAD": "/evil.so"}}}}"#, "LD_PRELOAD cannot be asked for"),
        (#"{"mcp_servers": {"t": {"command": "/x", "files": {"relative": "read"}}}}"#, "must be an absolute path"),
        (#"{"mcp_servers": {"t": {"command": "/x", "files": {"/a": "all"}}}}"#, "must be \"read\" or \"read-write\""),
        (#"{"mcp_servers": {"t": {"command": "/x", "network": "some"}}}"#, "/mcp_servers/t/network must be \"none\", \"any\""),
        (#"{"mcp_servers": {"t": {"command": "/x", "comand": "/y"}}}"#, "/mcp_servers/t/comand is not a member"),
        (#"{"mcp_servers": {"t": {"command": "/x", "tools": {"t.a": {"permission": "root"}}}}}"#, "/tools/t.a/permission must be"),
        (#"{"mcp_servers": {"t": {"url": "ftp://h/mcp"}}}"#, "must be an http:// or https:// URL"),
        (#"{"mcp_servers": {"t": {"url": "https://u:p@h/mcp"}}}"#, "holds credentials"),
        (#"{"mcp_servers": {"t": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer abc"}}}}"#, "/headers/Authorization holds a secret written out"),
        (#"{"mcp_servers": {"a b": {"command": "/x"}}}"#, "has the name \"a b\""),
        (#"{"mcp_servers": {"t": {"command": "/x"}, "T": {"command": "/y"}}}"#, "names the same server as /mcp_servers/t"),
    ])
    func badMembers(text: String, expected: String) throws {
        let error = try #require(throws: HostError.self) { try read(text) }
        #expect(error.kind == .registry)
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(error.message.contains("skill_registry.json: "))
        #expect(!error.message.contains("\n"))
    }

    @Test("secret references pass; literal values pass where the name says no secret; headers with a scheme and a reference pass")
    func secretReferences() throws {
        #expect(MCPSecrets.literalSecretProblem(name: "GITHUB_TOKEN", value: "${GITHUB_TOKEN}", kind: "variable") == nil)
        #expect(MCPSecrets.literalSecretProblem(name: "Authorization", value: "Bearer ${MCP_TOKEN}", kind: "header") == nil)
        #expect(MCPSecrets.literalSecretProblem(name: "TZ", value: "Europe/Paris", kind: "variable") == nil)
        #expect(MCPSecrets.literalSecretProblem(name: "X-Api-Key", value: "k-123", kind: "header") != nil)
        #expect(MCPSecrets.literalSecretProblem(name: "DB_PASSWORD", value: "pre${X}post", kind: "variable") != nil)
        #expect(try MCPSecrets.expand("Bearer ${T}", environment: ["T": "s3cret"], usedBy: "h") == "Bearer s3cret")
        let missing = try #require(throws: HostError.self) { try MCPSecrets.expand("${NOPE}", environment: [:], usedBy: "mcp_servers.x.env.A") }
        #expect(missing.message.contains("mcp_servers.x.env.A refers to ${NOPE}, which is not set"))
    }

    @Test("writes keep other members and the tools' settings; removing the last server removes mcp_servers")
    func writes() throws {
        let path = HostTestSupport.temporaryDirectory() + "/skill_registry.json"
        let store = RegistryStore(path: path)
        var entry = MCPServerEntry(name: "git", transport: .stdio(command: "/usr/bin/git-mcp", arguments: []))
        try store.update { $0.setMCPServer(entry) }
        try store.update { $0.setMCPToolValue(false, forKey: "enabled", tool: "git.git_log", server: "git") }
        entry.files = [SandboxPolicy.Rule(path: "/srv/repo", access: .read)]
        try store.update { $0.setMCPServer(entry) }
        let registry = try store.read()
        #expect(registry.mcpServer("git")?.files == entry.files)
        #expect(registry.mcpServer("git")?.toolSettings("git.git_log").enabled == false)
        try store.update { $0.removeMCPServer("GIT") }
        #expect(try store.read().document["mcp_servers"] == nil)
    }
}
