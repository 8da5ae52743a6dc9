import Dispatch
import SkillAgent
import SkillHostCore
import SkillJSON
import SkillMCP

/// A backend with one read-only tool that answers every call at once.
private struct EchoBackend: MCPToolBackend {
    func tools() throws(HostError) -> [AgentTool] {
        [AgentTool(
            skillID: "fuzz.echo", title: "Echo", description: "Echoes.",
            parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
            permission: .read, timeout: 5, idempotent: true, examples: [], summary: nil)]
    }
    func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> { .success(.object([:])) }
}

/// The MCP message handler: each input line goes to a fresh, initialized server.
func fuzzMCP(_ input: [UInt8]) {
    let configuration = MCPServerConfiguration(
        approval: MCPApprovalPolicy(allowWrites: false, registryPath: "/nonexistent/skill_registry.json"))
    let server = MCPServer(configuration: configuration, backend: EchoBackend(), send: { _ in })
    server.receive(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#)
    server.receive(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
        server.receive(line)
    }
    // Calls run on tasks: wait for them so one input's work does not leak into the next.
    let done = DispatchSemaphore(value: 0)
    Task {
        await server.finish()
        done.signal()
    }
    done.wait()
}
