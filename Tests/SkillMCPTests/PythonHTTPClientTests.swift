import Foundation
import Testing

/// `skillhost mcp` against the official Python `mcp` 2.x `Client` in each of its modes — "legacy"
/// (initialize), "auto" (server/discover, then fall back) and pinned to "2026-07-28" (stateless) — over
/// Streamable HTTP (a server with tokens) and over stdio (Tests/Peers/mcp_client_modes.py): the same tools in
/// every mode, calls by portable name and by skill id, isError on bad arguments, approval of a write skill
/// asked of the user (input_required) where the client can answer and refused by the registry's default
/// where it cannot, subscriptions/listen, and a read token refused on a write skill.
@Suite(.serialized) struct PythonHTTPClientTests {
    @Test(.timeLimit(.minutes(4))) func theOfficialPythonClientInEveryModeOverHTTPAndStdio() throws {
        let python = try PythonClientTests.python()
        let server = try HTTPTestServer()
        defer { server.stop() }
        let script = MCPTestSupport.packageRoot + "/Tests/Peers/mcp_client_modes.py"
        let result = try PythonClientTests.run(python, [script, HTTPTestServer.binary, server.root, server.url, server.writeToken, server.readToken])
        #expect(result.status == 0, "\(result.output)\n--- server log ---\n\(server.log.suffix(3000))")
        #expect(result.output.contains("all checks passed"))
        #expect(server.stop() == 0, "SIGTERM ends the server cleanly")
        #expect(server.log.contains("mcp-http: 127.0.0.1:"), "--verbose logs one line per request")
    }
}
