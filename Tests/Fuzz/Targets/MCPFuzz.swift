import SkillCalls
import Dispatch
import SkillHostCore
import SkillJSON
import SkillMCP

/// A backend with one read-only tool that answers every call at once.
private struct EchoBackend: SkillBackend {
    func tools() throws(HostError) -> [SkillTool] {
        [SkillTool(
            id: "fuzz.echo", title: "Echo", description: "Echoes.",
            parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
            permission: .read, timeout: 5, idempotent: true, examples: [], summary: nil)]
    }
    func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard let tool = try tools().first(where: { $0.id == skillID }) else { throw HostError(.notFound, "no skill \(skillID)") }
        return PreparedCall(
            skill: SkillDescription(manifest: tool.skill, pluginID: "fuzz", pluginPath: "", enabled: true, approval: .allow),
            arguments: arguments)
    }
    func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue { .object([:]) }
}

/// A server, initialized with `initialize` + `notifications/initialized` when `ready`.
private func makeServer(ready: Bool) -> MCPServer {
    let configuration = MCPServerConfiguration(
        approval: MCPApprovalPolicy(allowWrites: false, registryPath: "/nonexistent/skill_registry.json"))
    let server = MCPServer(configuration: configuration, backend: EchoBackend(), send: { _ in })
    if ready {
        server.receive(#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#)
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    }
    return server
}

/// The one initialized server of the process: building and initializing a server per input cost most of
/// each run (about 170 runs/s). Its state after the handshake is what every input starts from.
private let readyServer = makeServer(ready: true)

/// The MCP message handler, one input line at a time. An input that speaks of `initialize` (the handshake
/// itself, or `notifications/initialized`) gets a fresh, uninitialized server, so the lifecycle is fuzzed
/// too; every other input goes to the process's initialized server.
func fuzzMCP(_ input: [UInt8]) {
    let server = contains(input, "initialize") ? makeServer(ready: false) : readyServer
    for line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
        server.receive(line)
    }
    // Calls run on tasks: wait for them so one input's work does not leak into the next (only calls start
    // tasks, so inputs without one skip the hop).
    guard contains(input, "tools/call") else { return }
    let done = DispatchSemaphore(value: 0)
    Task {
        await server.finish()
        done.signal()
    }
    done.wait()
}

/// Whether `input` holds the bytes of `word`.
private func contains(_ input: [UInt8], _ word: StaticString) -> Bool {
    let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard input.count >= needle.count, let first = needle.first else { return false }
    var index = 0
    while index <= input.count - needle.count {
        if input[index] == first, input[index..<index + needle.count].elementsEqual(needle) { return true }
        index += 1
    }
    return false
}
