import Foundation
import SkillAgent
import SkillHostCore
import SkillJSON
import SkillMCP
import Synchronization

/// Collects what a server sends and waits for particular messages.
final class SentLines: Sendable {
    private let lines = Mutex<[String]>([])

    /// The sink to give the server.
    var sink: MCPServer.Sink { { [self] line in lines.withLock { $0.append(line) } } }

    /// Every message sent so far, parsed.
    var messages: [JSONValue] { lines.withLock { $0 }.map { (try? JSONValue(parsing: $0)) ?? .null } }

    /// Every raw line sent so far.
    var raw: [String] { lines.withLock { $0 } }

    /// The response with this id, waiting up to `seconds`.
    func response(_ id: JSONValue, seconds: Double = 10) async throws -> JSONValue {
        try await first(seconds: seconds) { $0["id"] == id && $0["method"] == nil }
    }

    /// The first message matching `predicate`, waiting up to `seconds`.
    func first(seconds: Double = 10, where predicate: (JSONValue) -> Bool) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let found = messages.first(where: predicate) { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestFailure("no matching message within \(seconds) s; sent: \(raw)")
    }
}

/// An in-memory backend: tools are set by the test; `run` behaves by skill name:
/// `*.echo` returns its arguments, `*.slow` sleeps until cancelled (or 30 s), `*.bad` fails with
/// invalidArguments, and any non-read skill asks approval first (denied → HostError.denied).
final class FakeBackend: MCPToolBackend {
    private let current: Mutex<[AgentTool]>
    private let log = Mutex<[String]>([])

    private let limits: [String: MCPCallLimit]

    init(_ tools: [AgentTool], limits: [String: MCPCallLimit] = [:]) {
        current = Mutex(tools)
        self.limits = limits
    }

    func callLimits() throws(HostError) -> [String: MCPCallLimit] { limits }

    func setTools(_ tools: [AgentTool]) { current.withLock { $0 = tools } }
    var events: [String] { log.withLock { $0 } }

    func tools() throws(HostError) -> [AgentTool] { current.withLock { $0 } }

    func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> {
        let tool = current.withLock { $0 }.first { $0.skillID == invocation.skillID }!
        if tool.permission != .read {
            let allowed = await invocation.approval.approve(
                ApprovalRequest(skillID: tool.skillID, permission: tool.permission, arguments: invocation.arguments))
            guard allowed else { return .failure(HostError(.denied, "skill \(tool.skillID) was not approved; nothing was run")) }
        }
        if tool.skillID.hasSuffix(".slow") {
            log.withLock { $0.append("slow started") }
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                log.withLock { $0.append("slow cancelled") }
                return .failure(HostError(.cancelled, "skill \(tool.skillID) was cancelled"))
            }
            return .success(["slept": true])
        }
        if tool.skillID.hasSuffix(".bad") {
            return .failure(HostError(.invalidArguments, "skill \(tool.skillID): /count must be an integer", details: ["errors": ["/count"]]))
        }
        return .success(invocation.arguments)
    }
}

enum MCPTestSupport {
    /// The package root.
    static var packageRoot: String { TestPackage.root }

    static func tool(_ id: String, permission: AgentTool.Permission = .read, summary: String? = nil) -> AgentTool {
        AgentTool(
            skillID: id, title: "Title of \(id)", description: "Does \(id).",
            parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
            permission: permission, timeout: 5, idempotent: permission == .read, examples: [], summary: summary)
    }

    static func server(
        _ backend: some MCPToolBackend, sent: SentLines, pageSize: Int = 100, allowWrites: Bool = false,
        skills: any InstructionSkillSource = EmptyInstructionSkillSource(), progress: Duration = .seconds(2)
    ) -> MCPServer {
        let configuration = MCPServerConfiguration(
            approval: MCPApprovalPolicy(allowWrites: allowWrites, registryPath: "/tmp/reg.json"),
            pageSize: pageSize, progressInterval: progress)
        return MCPServer(configuration: configuration, backend: backend, skills: skills, send: sent.sink)
    }

    /// `initialize` + `notifications/initialized`.
    static func handshake(_ server: MCPServer) {
        server.receive(#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#)
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    }

    /// A temporary folder.
    static func temporaryDirectory(_ name: String = "skillhost-mcp-test") -> String {
        TestPackage.temporaryDirectory(name)
    }

    /// Writes text to a file, creating folders.
    static func write(_ text: String, to path: String) throws { try TestPackage.write(text, to: path) }
}
