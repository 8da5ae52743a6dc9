import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `run_skill_script` (issue #30) is offered by `skillhost mcp` on stdio, where a connection is one session
/// with its own workspace, and over HTTP, where every client of a replica shares the server's session: there
/// each bearer token gets a workspace of its own, and one token's scripts never see another's files.
@Suite(.serialized) struct ScriptToolTransportTests {
    static let list = #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#

    static func names(_ line: String) throws -> Set<String> {
        let tools = try #require(try JSONValue(parsing: line)["result"]?["tools"]?.arrayValue, "\(line)")
        return Set(tools.compactMap { $0["name"]?.stringValue })
    }

    /// A root with the `greeter` skill: `scripts/keep.py NAME TEXT` writes a file into its workspace,
    /// `scripts/look.py [PATH…]` lists its workspace and tries to read each PATH.
    static func makeRoot() throws -> (root: String, write: String, read: String) {
        var root = try HTTPTestServer.makeRoot()
        try MCPTestSupport.write("---\nname: greeter\ndescription: Use greeter to greet.\n---\nRun scripts/keep.py or scripts/look.py.\n", to: root.root + "/skills/greeter/SKILL.md")
        try MCPTestSupport.write("import sys\nopen(sys.argv[1], 'w').write(sys.argv[2])\nprint('kept', sys.argv[1])\n", to: root.root + "/skills/greeter/scripts/keep.py")
        try MCPTestSupport.write("""
            import os, sys
            print('here:', ','.join(sorted(n for n in os.listdir('.') if not n.startswith('.'))))
            for path in sys.argv[1:]:
                try:
                    print(path, open(path).read())
                except OSError as error:
                    print(path, 'blocked:', type(error).__name__)
            """, to: root.root + "/skills/greeter/scripts/look.py")
        root.write = try HTTPTestServer.token("alice", scope: "write", root: root.root)
        root.read = try HTTPTestServer.token("bob", scope: "write", root: root.root)
        return root
    }

    @Test(.timeLimit(.minutes(2))) func stdioAndHTTPOfferTheScriptTool() throws {
        let root = try Self.makeRoot()
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
        #expect(try Self.names(response.body) == stdioNames, "the same tools on both")
    }

    /// Two tokens' scripts run in two workspaces under `<state>/workspaces/`: what alice's script wrote, bob's
    /// script neither lists nor reads (the sandbox gives a run its own workspace only), and alice's next call
    /// finds her file again.
    @Test(.timeLimit(.minutes(2)), .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
    func twoTokensDoNotSeeEachOthersFiles() throws {
        let root = try Self.makeRoot()
        let server = try HTTPTestServer(root: root, arguments: ["--allow-writes"])
        defer { server.stop() }
        func run(_ token: String, _ arguments: String) throws -> JSONValue {
            let client = try RawHTTPClient(port: server.port)
            client.send(MCPHTTPTransportTests.post(
                MCPHTTPTransportTests.call("run_skill_script", arguments), token: token, name: "run_skill_script"))
            let response = client.response()
            try #require(response.status == 200, "\(response.head)\n\(response.body)\n\(server.log)")
            let result = try #require(try JSONValue(parsing: response.body)["result"], "\(response.body)")
            try #require(result["isError"] != true, "\(response.body)")
            return try #require(result["structuredContent"], "\(response.body)")
        }
        let kept = try run(root.write, #"{"name":"greeter","path":"scripts/keep.py","args":["secret.txt","alice's"]}"#)
        let alice = try #require(kept["workspace"]?.stringValue)
        #expect(alice.hasPrefix(root.root + "/state/workspaces/mcp-token-alice-"), "\(alice)")
        #expect(FileManager.default.fileExists(atPath: alice + "/secret.txt"))

        let looked = try run(root.read, #"{"name":"greeter","path":"scripts/look.py","args":["secret.txt","\#(alice)/secret.txt"]}"#)
        let bob = try #require(looked["workspace"]?.stringValue)
        #expect(bob != alice)
        #expect(bob.hasPrefix(root.root + "/state/workspaces/mcp-token-bob-"), "\(bob)")
        #expect(looked["stdout"] == .string("here: \nsecret.txt blocked: FileNotFoundError\n\(alice)/secret.txt blocked: PermissionError\n"), "\(looked)")

        let again = try run(root.write, #"{"name":"greeter","path":"scripts/look.py","args":["secret.txt"]}"#)
        #expect(again["workspace"]?.stringValue == alice)
        #expect(again["stdout"] == "here: secret.txt\nsecret.txt alice's\n", "\(again)")
    }
}
