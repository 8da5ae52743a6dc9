import SkillCalls
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
/// invalidArguments; any non-read skill needs approval (the registry's `ask`), which the tool-call layer
/// asks the server's policy for.
final class FakeBackend: SkillBackend {
    private let current: Mutex<[SkillTool]>
    private let log = Mutex<[String]>([])

    private let limits: [String: CallLimit]

    init(_ tools: [SkillTool], limits: [String: CallLimit] = [:]) {
        current = Mutex(tools)
        self.limits = limits
    }

    func callLimits() throws(HostError) -> [String: CallLimit] { limits }

    func setTools(_ tools: [SkillTool]) { current.withLock { $0 = tools } }
    var events: [String] { log.withLock { $0 } }

    func tools() throws(HostError) -> [SkillTool] { current.withLock { $0 } }

    func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        guard let tool = current.withLock({ $0 }).first(where: { $0.id == skillID }) else {
            throw HostError(.notFound, "no skill \(skillID)", skillID: skillID)
        }
        guard case .object = arguments else {
            throw HostError(.invalidArguments, "skill \(skillID): arguments must be a JSON object, got \(arguments.typeName); e.g. '{}'")
        }
        let skill = SkillDescription(
            manifest: tool.skill, pluginID: String(skillID.split(separator: ".").first ?? ""), pluginPath: "", enabled: true,
            approval: tool.permission == .read ? .allow : .ask)
        return PreparedCall(skill: skill, arguments: arguments)
    }

    func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        let id = call.skill.id
        if id.hasSuffix(".slow") {
            log.withLock { $0.append("slow started") }
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                log.withLock { $0.append("slow cancelled") }
                throw HostError(.cancelled, "skill \(id) was cancelled")
            }
            return ["slept": true]
        }
        if id.hasSuffix(".bad") {
            throw HostError(.invalidArguments, "skill \(id): /count must be an integer", details: ["errors": ["/count"]])
        }
        return call.arguments
    }
}

enum MCPTestSupport {
    /// The package root.
    static var packageRoot: String { TestPackage.root }

    static func tool(_ id: String, permission: SkillTool.Permission = .read, summary: String? = nil) -> SkillTool {
        SkillTool(
            id: id, title: "Title of \(id)", description: "Does \(id).",
            parameters: ["type": "object", "properties": ["text": ["type": "string"]]],
            permission: permission, timeout: 5, idempotent: permission == .read, examples: [], summary: summary)
    }

    static func server(
        _ backend: some SkillBackend, sent: SentLines, pageSize: Int = 100, allowWrites: Bool = false,
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
