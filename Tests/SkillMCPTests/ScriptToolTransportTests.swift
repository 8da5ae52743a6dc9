import Foundation
import SkillJSON
import Testing

/// `run_skill_script` (issue #30) is offered by `skillhost mcp` on stdio, where a connection is one session
/// with its own workspace, and not over HTTP, where every client of a replica would share one workspace.
@Suite(.serialized) struct ScriptToolTransportTests {
    static let list = #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#

    static func names(_ line: String) throws -> Set<String> {
        let tools = try #require(try JSONValue(parsing: line)["result"]?["tools"]?.arrayValue, "\(line)")
        return Set(tools.compactMap { $0["name"]?.stringValue })
    }

    @Test(.timeLimit(.minutes(2))) func stdioOffersTheScriptToolAndHTTPDoesNot() throws {
        var root = try HTTPTestServer.makeRoot()
        try MCPTestSupport.write("---\nname: greeter\ndescription: Use greeter to greet.\n---\nRun scripts/hello.py.\n", to: root.root + "/skills/greeter/SKILL.md")
        try MCPTestSupport.write("print('hello')\n", to: root.root + "/skills/greeter/scripts/hello.py")
        root.write = try HTTPTestServer.token("lister", scope: "write", root: root.root)

        let stdio = try TestProcess.run(
            HTTPTestServer.binary, ["mcp"] + HTTPTestServer.globalOptions(root.root),
            environment: ["XDG_DATA_HOME": root.root + "/xdg-data", "SKILLHOST_STATE": root.root + "/state", "PATH": "/usr/bin:/bin"],
            stdin: Self.list + "\n")
        let stdioNames = try Self.names(try #require(stdio.stdout.split(separator: "\n").first.map(String.init), "\(stdio.stderr)"))
        #expect(stdioNames.contains("run_skill_script"), "\(stdioNames)")
        #expect(stdioNames.contains("fixture_echo"))

        let server = try HTTPTestServer(root: root)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send(MCPHTTPTransportTests.post(Self.list, token: root.write, method: "tools/list", name: nil))
        let response = client.response()
        #expect(response.status == 200, "\(response.head)\n\(response.body)")
        let httpNames = try Self.names(response.body)
        #expect(!httpNames.contains("run_skill_script"), "\(httpNames)")
        #expect(httpNames == stdioNames.subtracting(["run_skill_script"]), "the same native tools on both")
    }
}
