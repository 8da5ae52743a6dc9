import Foundation
import SkillJSON
import SkillMCP
import Testing

/// Replays the fuzz regressions and seeds of the `mcp` and `mcp-diff` targets (Tests/Fuzz/) through
/// an initialized server, as Tests/Fuzz/Targets/MCPFuzz.swift does: every line the server sends back is
/// one JSON-RPC message, and the server keeps answering `ping` afterwards.
@Suite struct FuzzReplayTests {
    @Test func everyFuzzInputGetsWellFormedAnswers() async throws {
        let inputs = FuzzCorpus.inputs("mcp", "mcp-diff")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let sent = SentLines()
            let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("fuzz.echo")]), sent: sent)
            MCPTestSupport.handshake(server)
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) { server.receive(line) }
            await server.finish()
            server.receive(#"{"jsonrpc":"2.0","id":"after-fuzz","method":"ping"}"#)
            _ = try await sent.response("after-fuzz")
            for line in sent.raw {
                #expect(try JSONValue(parsing: line).objectValue?["jsonrpc"] == "2.0", "\(name): \(line)")
            }
        }
    }
}
