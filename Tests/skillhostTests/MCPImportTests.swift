import Foundation
import SkillJSON
import Testing

/// `skillhost import-mcp FILE` (issue #35): Claude Desktop's / Cursor's `mcpServers` and VS Code's `servers`
/// shapes; secrets written out in the file never reach the registry (they become `${NAME}` references the
/// user is told to export); a server whose command is missing is named with the reason while the others are
/// added.
struct MCPImportTests {
    func run(_ root: String, _ arguments: [String]) throws -> ProcessResult {
        try TestProcess.run(try TestPackage.skillhostBinary(), [arguments[0]] + [
            "--registry", root + "/config/skill_registry.json", "--plugins", root + "/plugins", "--cache", root + "/cache",
            "--skills", root + "/skills",
        ] + arguments.dropFirst(), environment: ["XDG_DATA_HOME": root, "PATH": "/usr/bin:/bin"])
    }

    @Test func claudeDesktopAndVSCodeShapes() throws {
        let root = TestPackage.temporaryDirectory("mcp-import")
        try TestPackage.write("""
            {"mcpServers": {
              "files": {"command": "/bin/cat", "args": ["-u"]},
              "github": {"command": "/bin/true", "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_written_out_123"}},
              "missing": {"command": "no-such-mcp-server", "args": ["-y"]},
              "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer abc-written-out"}}
            }}
            """, to: root + "/claude_desktop_config.json")
        let claude = try run(root, ["import-mcp", root + "/claude_desktop_config.json"])
        #expect(claude.status == 1, "one server could not be added: \(claude.stderr)")
        #expect(claude.stdout.contains("added MCP server github; export GITHUB_PERSONAL_ACCESS_TOKEN before it starts"), "\(claude.stdout)")
        #expect(claude.stderr.contains(#"import-mcp: missing not added: its command "no-such-mcp-server" is not an executable file or on PATH"#), "\(claude.stderr)")
        let registry = try String(contentsOfFile: root + "/config/skill_registry.json", encoding: .utf8)
        #expect(!registry.contains("ghp_written_out_123") && !registry.contains("abc-written-out"), "no secret in the registry")
        let document = try JSONValue(parsing: Array(registry.utf8))
        #expect(document["mcp_servers"]?["github"]?["env"]?["GITHUB_PERSONAL_ACCESS_TOKEN"] == "${GITHUB_PERSONAL_ACCESS_TOKEN}")
        #expect(document["mcp_servers"]?["remote"]?["headers"]?["Authorization"] == "Bearer ${REMOTE_TOKEN}")
        #expect(document["mcp_servers"]?["files"]?["command"] == "/bin/cat")

        try TestPackage.write("""
            {"inputs": [{"type": "promptString", "id": "api-key", "password": true}],
             "servers": {"fetch": {"type": "stdio", "command": "/bin/true", "env": {"API_KEY": "${input:api-key}", "LANG_DIR": "${env:HOME}"}},
                         "docs": {"type": "http", "url": "https://docs.example.com/mcp"},
                         "files": {"type": "stdio", "command": "/bin/cat"}}}
            """, to: root + "/mcp.json")
        let vscode = try run(root, ["import-mcp", root + "/mcp.json", "--json"])
        #expect(vscode.status == 1, "files is already there: \(vscode.stdout)")
        let report = try JSONValue(parsing: Array(vscode.stdout.utf8)).arrayValue ?? []
        let byName = Dictionary(uniqueKeysWithValues: report.compactMap { item in item["name"]?.stringValue.map { ($0, item) } })
        #expect(byName["fetch"]?["added"] == true && byName["fetch"]?["export"] == ["API_KEY"])
        #expect(byName["docs"]?["added"] == true)
        #expect(byName["files"]?["problem"]?.stringValue?.contains("--replace") == true, "\(report)")
        let after = try JSONValue(parsing: Array(try String(contentsOfFile: root + "/config/skill_registry.json", encoding: .utf8).utf8))
        #expect(after["mcp_servers"]?["fetch"]?["env"] == ["API_KEY": "${API_KEY}", "LANG_DIR": "${HOME}"])

        let notAConfiguration = root + "/other.json"
        try TestPackage.write(#"{"editor": {}}"#, to: notAConfiguration)
        let refused = try run(root, ["import-mcp", notAConfiguration])
        #expect(refused.status == 2 && refused.stderr.contains(#"has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object"#))
    }
}
