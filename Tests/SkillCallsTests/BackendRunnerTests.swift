import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillTestSupport
import Synchronization
import Testing

/// A call runs on the backend that owns it (``SkillBackend/runner(for:)``): forwarding backends (scripts,
/// workflows, MCP sources, each over the next) answer `tools()` and `prepare`, but ``ToolCaller`` hands the
/// run straight to the owner instead of through every layer's `run`.
@Suite struct BackendRunnerTests {
    /// A backend over `inner` that owns the skills named in `own` and forwards the rest, counting the runs
    /// that reached its own `run`.
    final class Forwarder: SkillBackend {
        let inner: any SkillBackend
        let own: Set<String>
        let runs = Mutex<[String]>([])

        init(inner: any SkillBackend, own: Set<String>) {
            self.inner = inner
            self.own = own
        }

        func tools() throws(HostError) -> [SkillTool] { try inner.tools() }
        func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
            try inner.prepare(skillID: skillID, arguments: arguments)
        }
        func runner(for call: PreparedCall) -> any SkillBackend { own.contains(call.skill.id) ? self : inner.runner(for: call) }
        nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
            runs.withLock { $0.append(call.skill.id) }
            if own.contains(call.skill.id) { return ["by": "forwarder"] }
            return try await inner.run(call, options: options)
        }
    }

    @Test func aCallRunsOnItsOwnerWithoutPassingTheLayersAboveIt() async throws {
        let echo = ToolCallerTests.tool("text.echo")
        let memory = MemoryBackend([MemoryBackend.Skill(tool: echo) { arguments, _ in arguments }])
        let lower = Forwarder(inner: memory, own: ["lower.own"])
        let upper = Forwarder(inner: lower, own: ["upper.own"])
        let caller = ToolCaller(backend: upper, approval: AllowAllApproval(), sessionID: "s")
        let outcome = await caller.call(ToolCallerTests.request(echo, .value(["text": "hi"])))
        #expect(try outcome.result.get() == ["text": "hi"])
        #expect(memory.invocations.map(\.skillID) == ["text.echo"])
        #expect(upper.runs.withLock { $0 }.isEmpty, "the call went through the upper layer's run")
        #expect(lower.runs.withLock { $0 }.isEmpty, "the call went through the lower layer's run")
    }

    @Test func aBackendRunsItsOwnCallsAndTheDefaultRunnerIsTheBackendItself() throws {
        let echo = ToolCallerTests.tool("text.echo"), own = ToolCallerTests.tool("lower.own")
        let memory = MemoryBackend([
            MemoryBackend.Skill(tool: echo) { arguments, _ in arguments }, MemoryBackend.Skill(tool: own) { arguments, _ in arguments },
        ])
        let echoCall = try memory.prepare(skillID: "text.echo", arguments: ["text": "hi"])
        let ownCall = try memory.prepare(skillID: "lower.own", arguments: ["text": "hi"])
        #expect(memory.runner(for: echoCall) as? MemoryBackend === memory)
        let lower = Forwarder(inner: memory, own: ["lower.own"])
        let upper = Forwarder(inner: lower, own: [])
        #expect(upper.runner(for: ownCall) as? Forwarder === lower)
        #expect(upper.runner(for: echoCall) as? MemoryBackend === memory)
    }
}
