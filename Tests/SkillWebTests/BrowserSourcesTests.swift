import Foundation
import SkillJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The page offers what `skillhost chat` offers: a real MCP server from PyPI (`mcp-server-time`, installed by
/// the test into `.build/peers/`) added with `add-mcp`, and an installed workflow over its tool. In headless
/// Chromium (Tests/Peers/ui_browser_sources.py) the scripted model calls the MCP tool and the workflow from
/// the web chat; the Skills tab shows the server running with its tools, the workflow with its steps, the
/// details (schemas, annotations, sandbox, trust pin, p50/p95); switching a tool and the server off there is
/// what `skillhost list --json` then shows. It also walks the page by keyboard and checks every control has
/// a name, and that the Skills tab fits 360 px.
@Suite(.serialized) struct BrowserSourcesTests {
    static let time = PythonVirtualEnvironment(name: "mcp-server-time", packages: ["mcp-server-time"], probe: "import mcp_server_time")

    @Test(.timeLimit(.minutes(5))) func aPersonCallsAnMCPToolAndAWorkflowFromThePageAndSwitchesThemOff() throws {
        for program in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: program) {
            throw TestSetupError("missing \(program): install Debian's chromium and chromium-driver (scripts/ensure-deps.sh does)")
        }
        let python = try BrowserTests.selenium.python()
        _ = try Self.time.python()
        let skillhost = try TestPackage.skillhostBinary()
        let server = try ReplayServer(
            [
                BrowserTests.toolCall("call_time1", "time_get_current_time", #"{"timezone":"Asia/Tokyo"}"#),
                BrowserTests.answer("It is evening in Tokyo."),
                BrowserTests.toolCall("call_flow1", "workflow_zones", "{}"),
                BrowserTests.answer("Both zones read."),
            ], lifetime: 300)
        defer { server.stop() }
        let root = TestPackage.temporaryDirectory("skillhost-ui-sources")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["plugins", "workflows"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        // A workflow over the MCP server's tool: two steps, the second after the first.
        try """
            name: zones
            description: The time in Tokyo, then in Paris.
            steps:
              - id: tokyo
                skill: time.get_current_time
                arguments:
                  timezone: Asia/Tokyo
              - id: paris
                skill: time.get_current_time
                needs: [tokyo]
                arguments:
                  timezone: Europe/Paris

            """.write(toFile: root + "/workflows/zones.yaml", atomically: true, encoding: .utf8)
        let environment = [
            "SKILLHOST_PLUGINS": root + "/plugins", "SKILLHOST_REGISTRY": root + "/skill_registry.json",
            "SKILLHOST_CACHE": root + "/cache", "SKILLHOST_SKILLS": root + "/skills", "XDG_DATA_HOME": root + "/data",
            "SKILLHOST_STATE": root + "/state", "SKILLHOST_WORKFLOWS": root + "/workflows",
        ]
        var full = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "SKILLHOST_PROVIDER", "SKILLHOST_MODEL"] {
            full[key] = nil
        }
        full.merge(environment) { _, new in new }
        let added = try TestProcess.run(
            skillhost, ["add-mcp", "time", "--", Self.time.folder + "/bin/mcp-server-time", "--local-timezone", "UTC"], environment: full)
        #expect(added.status == 0, "\(added.stderr)")
        let shots = TestPackage.root + "/.build/ui-screenshots"
        try BrowserTests.drive(
            "ui_browser_sources.py", python: python, skillhost: skillhost, model: server.baseURL, environment: environment,
            full: full, shots: shots)
        // The model was offered the MCP tool and the workflow, as `chat` offers them.
        let offered = (server.requests.first?.body?["tools"]?.arrayValue ?? []).compactMap { $0["function"]?["name"]?.stringValue }
        #expect(offered.contains("time_get_current_time") && offered.contains("workflow_zones"), "\(offered)")
        // No server process outlives the page's server.
        let left = try TestProcess.run("/usr/bin/pgrep", ["-f", Self.time.folder + "/bin/mcp-server-time"], environment: full)
        #expect(left.stdout.isEmpty, "mcp-server-time still runs: \(left.stdout)")
        for shot in ["skills-sources.png", "skills-sources-360.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: shots + "/" + shot)[.size] as? Int) ?? 0
            #expect(size > 1000, "screenshot \(shot)")
        }
    }
}
