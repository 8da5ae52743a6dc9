import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization
import Testing

/// An instruction skill's registry `permission` (default `write`) and its scripts' `approval` decide whether
/// `run_skill_script` asks (issue #30), as a plugin skill's permission and approval do; `skillhost set`'s
/// library half (``SkillHost/setSetting(_:key:value:)``) writes them, and refuses what does not fit in one line.
@Suite("run_skill_script permission", .serialized, .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct ScriptPermissionTests {
    typealias Scene = ScriptToolTests.Scene

    /// Records what the approval handler was asked, and answers `answer`.
    final class Asked: Sendable {
        let requests = Mutex<[ApprovalRequest]>([])
        let answer: Bool
        init(answer: Bool) { self.answer = answer }
        var handler: ClosureApproval {
            ClosureApproval { request in
                self.requests.withLock { $0.append(request) }
                return self.answer
            }
        }
        var count: Int { requests.withLock { $0.count } }
    }

    static let report: JSONValue = ["name": "report-maker", "path": "scripts/report.py", "stdin": "a b c"]

    @Test func byDefaultAScriptAsksAsAWriteSkillUnderItsSkillsEntry() async throws {
        let scene = try Scene(skills: ["ScriptSkills/report-maker"])
        let asked = Asked(answer: false)
        let outcome = try await scene.call(Self.report, approval: asked.handler)
        #expect(asked.count == 1)
        let request = try #require(asked.requests.withLock { $0.first })
        #expect(request.permission == .write)
        #expect(request.skill.pluginID == "report-maker")
        #expect(request.skill.id == "run_skill_script")
        guard case .failure(let error) = outcome.result else { Issue.record("ran without approval"); return }
        #expect(error.kind == .denied)
        // Nobody to ask: the refusal names the setting that allows it.
        let unasked = try await scene.call(Self.report, approval: DenyAllApproval())
        guard case .failure(let refusal) = unasked.result else { Issue.record("ran without approval"); return }
        #expect(refusal.message.contains("plugins.report-maker.skills.run_skill_script.approval"), "\(refusal.message)")
        #expect(!refusal.message.contains("\n"))
    }

    @Test func aReadSkillRunsWithoutAskingAndADangerousOneAsksAsDangerous() async throws {
        let scene = try Scene(skills: ["ScriptSkills/report-maker"])
        let change = try scene.host.setSetting("report-maker", key: "permission", value: "read")
        #expect(change.path == "plugins.report-maker.permission")
        #expect(change.previous == nil)
        let asked = Asked(answer: false)
        let result = try await scene.call(Self.report, approval: asked.handler).result.get()
        #expect(result["exit_status"] == 0, "\(result)")
        #expect(asked.count == 0)

        try scene.host.setSetting("report-maker", key: "permission", value: "dangerous")
        let refused = try await scene.call(Self.report, approval: asked.handler)
        #expect(asked.requests.withLock { $0.map(\.permission) } == [.dangerous])
        #expect(refused.refused)
        // --yes approves it, as it approves a dangerous plugin skill.
        #expect(try await scene.call(Self.report, approval: AllowAllApproval()).result.get()["exit_status"] == 0)
        // --reset: the default (write) again.
        let reset = try scene.host.setSetting("report-maker", key: "permission", value: nil)
        #expect(reset.previous == "dangerous")
        #expect(try scene.host.registryStore.read().scriptPolicy(forSkill: "report-maker") == .standard)
    }

    @Test func theRegistrysApprovalAllowsOrDeniesWithoutAsking() async throws {
        let scene = try Scene(skills: ["ScriptSkills/report-maker"])
        let asked = Asked(answer: false)
        let change = try scene.host.setSetting("report-maker", key: "approval", value: "allow")
        #expect(change.path == "plugins.report-maker.skills.run_skill_script.approval")
        #expect(try await scene.call(Self.report, approval: asked.handler).result.get()["exit_status"] == 0)
        #expect(asked.count == 0)
        try FileManager.default.removeItem(atPath: scene.state + "/workspaces/session-7/report.txt")
        try scene.host.setSetting("report-maker", key: "approval", value: "deny")
        let denied = try await scene.call(Self.report, approval: AllowAllApproval())
        guard case .failure(let error) = denied.result else { Issue.record("a denied script ran"); return }
        #expect(error.kind == .denied)
        #expect(error.message.contains("'skillhost set report-maker approval ask'"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: scene.state + "/workspaces/session-7/report.txt"))
        // list and inspect read the same policy.
        let record = try #require(try scene.host.catalog().instruction("report-maker"))
        #expect(record.hasScripts)
        #expect(record.scripts == ScriptPolicy(permission: .write, approval: .deny, approvalIsSet: true))
        #expect(record.summaryJSON["scripts"] == ["permission": "write", "approval": "deny"])
    }

    @Test func badSettingsAreOneLineWithTheFixAndChangeNothing() throws {
        let scene = try Scene(skills: ["ScriptSkills/report-maker"])
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: scene.root + "/plugins", as: "fixture.so")
        let before = try? String(contentsOfFile: scene.root + "/registry.json", encoding: .utf8)
        let cases: [(String, String, String?, HostError.Kind, String)] = [
            ("report-maker", "permision", "read", .invalidArguments, "\"permision\" is not a setting; use one of approval, permission"),
            ("report-maker", "permission", "rw", .invalidArguments, "\"rw\" is not a value of permission; use read, write, dangerous"),
            ("report-maker", "approval", "yes", .invalidArguments, "use ask, allow, deny"),
            ("report-maker", "timeout", "5", .invalidArguments, "take permission or approval, not timeout"),
            ("report-makr", "permission", "read", .notFound, "did you mean \"report-maker\""),
            ("fixture.echo", "permission", "read", .invalidArguments, "is its manifest's and cannot be changed; set its approval instead"),
            ("fixture", "approval", "allow", .invalidArguments, "is set per skill, not for the plugin fixture; name one of its skills"),
            ("fixture.echo", "timeout", "-1", .invalidArguments, "must be a number of seconds > 0"),
            ("fixture.echo", "rate_limit_per_minute", "many", .invalidArguments, "a whole number"),
        ]
        for (id, key, value, kind, says) in cases {
            do {
                try scene.host.setSetting(id, key: key, value: value)
                Issue.record("\(id) \(key) \(value ?? "--reset") was accepted")
            } catch {
                #expect(error.kind == kind, "\(id) \(key): \(error)")
                #expect(error.message.contains(says), "\(id) \(key): \(error.message)")
                #expect(!error.message.contains("\n"))
            }
        }
        #expect((try? String(contentsOfFile: scene.root + "/registry.json", encoding: .utf8)) == before, "a refused setting wrote the registry")
        // A plugin skill takes approval, timeout and rate limit where the registry keeps them.
        let timeout = try scene.host.setSetting("fixture.echo", key: "timeout", value: "12")
        #expect(timeout.path == "plugins.fixture.skills.fixture.echo.timeout")
        #expect(try scene.host.registryStore.read().skillSettings("fixture.echo", plugin: "fixture").timeout == 12)
    }

    @Test func aHandWrittenPermissionThatIsNoneIsOneLineNamingTheFileAndPointer() throws {
        let scene = try Scene(skills: ["ScriptSkills/report-maker"])
        try #"{"plugins": {"report-maker": {"permission": "rw"}}}"#.write(toFile: scene.root + "/registry.json", atomically: true, encoding: .utf8)
        do {
            _ = try scene.host.registryStore.read()
            Issue.record("a registry with permission \"rw\" was read")
        } catch {
            #expect(error.kind == .registry)
            #expect(error.message == "\(scene.root)/registry.json: /plugins/report-maker/permission must be one of \"read\", \"write\", \"dangerous\", got \"rw\"; fix the file by hand")
        }
    }
}
