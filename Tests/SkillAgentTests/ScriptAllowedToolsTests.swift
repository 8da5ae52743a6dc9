import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization
import Testing

/// `allowed-tools` as a pre-approval (issue #30): while a skill is active in the session, `run_skill_script`
/// of the scripts it lists runs without the question; before activation, for other scripts and for other
/// skills' scripts the question is asked; a registry `deny` still refuses.
@Suite("run_skill_script allowed-tools", .serialized, .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct ScriptAllowedToolsTests {
    /// The questions asked, shared with the approval's closure.
    final class Shared: Sendable {
        let questions = Mutex<[String]>([])
        func withLock<T>(_ body: (inout [String]) -> T) -> T { questions.withLock { body(&$0) } }
    }

    final class Scene {
        let root = HostTestSupport.temporaryDirectory("skillhost-allowed-tools")
        let host: SkillHost
        let backend: InstructionSkillBackend
        let asked = Shared()
        let context = SessionContext()

        init() throws {
            host = try HostTestSupport.makeHost(root: root).host
            let fixture = TestPackage.root + "/Tests/Fixtures/ScriptSkills/report-maker"
            let source = root + "/src/quick-report"
            try FileManager.default.createDirectory(atPath: root + "/src", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: fixture, toPath: source)
            try FileManager.default.copyItem(atPath: TestPackage.root + "/Tests/Fixtures/ScriptSkills/script-lab/scripts/fails.py", toPath: source + "/scripts/fails.py")
            try HostTestSupport.write("""
                ---
                name: quick-report
                description: Makes quick reports of text. Use for a quick report.
                allowed-tools: Bash(python3 scripts/report.py:*) Bash(git:*) Read
                ---
                Run scripts/report.py.
                """, to: source + "/SKILL.md")
            _ = try host.addSkill(from: source)
            _ = try host.addSkill(from: fixture)
            backend = InstructionSkillBackend(
                base: ScriptToolBackend(base: HostSkillBackend(host: host), host: host, stateDirectory: root + "/state"),
                library: HostInstructionLibrary(host: host))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Calls `tool` through a caller whose approval records the question and refuses.
        func call(_ tool: String, _ arguments: JSONValue) async throws -> ToolCallOutcome {
            let skillTool = try #require(try await backend.listTools().first { $0.id == tool })
            let asked = self.asked
            let approval = ClosureApproval { request in
                asked.withLock { $0.append(request.arguments["path"]?.stringValue ?? request.skill.id) }
                return false
            }
            let caller = ToolCaller(backend: backend, approval: approval, sessionID: "s1", sessionContext: context, preApproval: backend)
            return await caller.call(ToolCallRequest(toolName: tool, tool: skillTool, arguments: .value(arguments), callID: UUID().uuidString, origin: .call))
        }

        var questions: [String] { asked.withLock { $0 } }
    }

    @Test func theListedScriptRunsWithoutAskingOnlyWhileItsSkillIsActive() async throws {
        let scene = try Scene()
        let report: JSONValue = ["name": "quick-report", "path": "scripts/report.py", "stdin": "one two"]
        let before = try await scene.call("run_skill_script", report)
        #expect(before.refused, "asked before the skill is active")
        #expect(scene.questions == ["scripts/report.py"])

        #expect(try await scene.call("activate_skill", ["name": "quick-report"]).result.get()["name"] == "quick-report")
        let after = try await scene.call("run_skill_script", report).result.get()
        #expect(after["exit_status"] == 0, "\(after)")
        #expect(after["stdout"] == "REPORT HEADER v1: 2 words\n")
        #expect(scene.questions == ["scripts/report.py"], "no second question")

        // A script it does not list, and another skill's script of the same path, are asked about.
        _ = try await scene.call("run_skill_script", ["name": "quick-report", "path": "scripts/fails.py"])
        _ = try await scene.call("run_skill_script", ["name": "report-maker", "path": "scripts/report.py", "stdin": "x"])
        #expect(scene.questions == ["scripts/report.py", "scripts/fails.py", "scripts/report.py"])

        // The registry's deny refuses whatever allowed-tools says; the sandbox is the same (no grant).
        try scene.host.setSetting("quick-report", key: "approval", value: "deny")
        let denied = try await scene.call("run_skill_script", report)
        guard case .failure(let error) = denied.result else { Issue.record("a denied script ran"); return }
        #expect(error.kind == .denied)
    }

    @Test func theAgentLoopAsksItsBackendForPreApprovals() throws {
        let scene = try Scene()
        let agent = Agent(provider: OfflineProvider(), backend: scene.backend)
        #expect(agent.caller.preApproval != nil)
    }
}
