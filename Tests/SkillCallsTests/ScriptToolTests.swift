import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `run_skill_script` through the one path of a tool call (``ToolCaller`` over ``ScriptToolBackend`` and a real
/// host): offered only while an enabled instruction skill has scripts; a script of a skill we did not write
/// (anthropics/skills' skill-creator) and our own run sandboxed in the session's workspace; every bad input is
/// one line and leaves nothing running; a refused approval runs nothing.
@Suite("run_skill_script", .serialized, .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct ScriptToolTests {
    /// A host with the script skills of Tests/Fixtures added, and a caller over it.
    final class Scene {
        let root = HostTestSupport.temporaryDirectory("skillhost-script-tool")
        let host: SkillHost
        var state: String { root + "/state" }

        init(skills: [String] = ["ScriptSkills/report-maker", "ScriptSkills/script-lab", "AnthropicSkills/skill-creator"]) throws {
            try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
            host = SkillHost(
                paths: HostPaths(
                    plugins: root + "/plugins", registry: root + "/registry.json", cache: root + "/cache", data: root + "/data",
                    skills: root + "/skills"),
                helperExecutable: try HostilePlugins.workerExecutable())
            for skill in skills {
                _ = try host.addSkill(from: TestPackage.root + "/Tests/Fixtures/" + skill)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func backend(timeout: Double? = nil) -> ScriptToolBackend {
            var backend = ScriptToolBackend(base: HostSkillBackend(host: host), host: host, stateDirectory: state)
            if let timeout { backend.runner = SkillScriptRunner(hostExecutable: host.helperExecutable, timeout: timeout) }
            return backend
        }

        /// Calls the script tool with `arguments`; the outcome.
        func call(_ arguments: JSONValue, approval: any ApprovalHandler = AllowAllApproval(), timeout: Double? = nil) async throws -> ToolCallOutcome {
            let backend = backend(timeout: timeout)
            let tool = try #require(try await backend.listTools().first { $0.id == ScriptToolBackend.toolID })
            let caller = ToolCaller(backend: backend, approval: approval, sessionID: "session-7")
            return await caller.call(ToolCallRequest(
                toolName: tool.id, tool: tool, arguments: .value(arguments), callID: "c1", origin: .call))
        }
    }

    @Test func theToolIsOfferedOnlyWhileAnEnabledSkillHasScripts() throws {
        let plain = try Scene(skills: [])
        try HostTestSupport.write("---\nname: notes\ndescription: Takes notes.\n---\nWrite notes.\n", to: plain.root + "/src/notes/SKILL.md")
        _ = try plain.host.addSkill(from: plain.root + "/src/notes")
        #expect(try !plain.backend().tools().contains { $0.id == ScriptToolBackend.toolID })
        let scene = try Scene(skills: ["ScriptSkills/report-maker"])
        let tool = try #require(try scene.backend().tools().first { $0.id == ScriptToolBackend.toolID })
        #expect(tool.permission == .write)
        #expect(tool.parameters["properties"]?["name"]?["enum"] == ["report-maker"])
        _ = try scene.host.setEnabled(["report-maker"], false)
        #expect(try !scene.backend().tools().contains { $0.id == ScriptToolBackend.toolID })
    }

    @Test func aScriptOfASkillWeDidNotWriteRuns() async throws {
        let scene = try Scene()
        let outcome = try await scene.call([
            "name": "skill-creator", "path": "scripts/quick_validate.py", "args": [.string(scene.root + "/skills/skill-creator")],
        ])
        let result = try outcome.result.get()
        #expect(result["exit_status"] == 0, "\(result)")
        #expect(result["stdout"] == "Skill is valid!\n")
    }

    @Test func aScriptReadsItsReferencesAndWritesThreeFilesInTheSessionsWorkspace() async throws {
        let scene = try Scene()
        let workspace = scene.state + "/workspaces/session-7"
        try HostTestSupport.write("the quick brown fox\n", to: workspace + "/input.txt")
        let result = try await scene.call(["name": "report-maker", "path": "scripts/report.py", "args": ["input.txt"]]).result.get()
        #expect(result["exit_status"] == 0, "\(result)")
        #expect(result["stdout"] == "REPORT HEADER v1: 4 words\n")
        #expect(result["files"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["report.txt", "summary.json", "words.csv"])
        #expect(result["files"]?.arrayValue?.first?["file"]?.stringValue == workspace + "/report.txt")
        #expect(try String(contentsOfFile: workspace + "/summary.json", encoding: .utf8) == #"{"words": 4}"#)
        #expect(result["workspace"]?.stringValue == workspace)
        #expect(result["written"]?.stringValue == ["report.txt", "summary.json", "words.csv"].map { workspace + "/" + $0 }.joined(separator: ", "))
    }

    @Test func aScriptFailingIsAResultWithItsStatusAndStderr() async throws {
        let scene = try Scene()
        let result = try await scene.call(["name": "script-lab", "path": "scripts/fails.py"]).result.get()
        #expect(result["exit_status"] == 3)
        #expect(result["stdout"] == "about to fail\n")
        #expect(result["stderr"] == "bad input: expected a number\n")
        #expect(result["written"] == "nothing")
    }

    @Test func aHostileScriptIsBlockedAndLeavesNothingRunning() async throws {
        let scene = try Scene()
        let marker = "skh-script-\(UUID().uuidString.prefix(8))"
        let result = try await scene.call(["name": "script-lab", "path": "scripts/intrude.sh", "args": [.string(marker), .string(HostPaths.homeDirectory ?? "/root")]]).result.get()
        #expect(result["stdout"] == "ssh keys: blocked\nroot home: blocked\nsocket: blocked\nwrite outside: blocked\ndaemon: started\n", "\(result)")
        usleep(300_000)
        let left = try TestProcess.run("/usr/bin/pgrep", ["-f", "sleep 60"]).stdout
        #expect(left.isEmpty, "still running: \(left)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/\(marker)-escape"))
    }

    @Test func badInputIsOneLineAndRunsNothing() async throws {
        let scene = try Scene()
        let cases: [(JSONValue, HostError.Kind, String)] = [
            (["name": "script-lab", "path": "../report-maker/scripts/report.py"], .invalidArguments, "is refused: give a path inside the skill script-lab's folder"),
            (["name": "script-lab", "path": "/usr/bin/id"], .invalidArguments, "is refused"),
            (["name": "script-lab", "path": "scripts/missing.py"], .invalidArguments, "does not exist in the skill script-lab"),
            (["name": "script-lab", "path": "scripts/needs-ruby.rb"], .invalidArguments, "its #! line names \"ruby\""),
            (["name": "script-lab", "path": "SKILL.md"], .invalidArguments, "cannot be run"),
            (["name": "nobody", "path": "scripts/x.py"], .invalidArguments, "nobody"),
            (["name": "script-lab"], .invalidArguments, "path"),
            (["name": "script-lab", "path": "scripts/fails.py", "args": "one string"], .invalidArguments, "args"),
        ]
        for (arguments, kind, says) in cases {
            let outcome = try await scene.call(arguments)
            guard case .failure(let error) = outcome.result else {
                Issue.record("\(arguments) ran: \(outcome.result)")
                continue
            }
            #expect(error.kind == kind, "\(arguments): \(error)")
            #expect(error.message.contains(says), "\(arguments): \(error.message)")
            #expect(!error.message.contains("\n"), "\(arguments): more than one line: \(error.message)")
        }
    }

    @Test func floodsAreCutAndARunThatNeverEndsIsKilled() async throws {
        let scene = try Scene()
        let flood = try await scene.call(["name": "script-lab", "path": "scripts/flood.py"]).result.get()
        #expect(flood["exit_status"] == 0)
        #expect(flood["stdout"]?.stringValue?.utf8.count == 1 << 20)
        #expect(flood["stdout_cut"] == "only the first 1024 KiB of stdout are kept")
        #expect(flood["stderr"] == "flood done\n")
        let forever = try await scene.call(["name": "script-lab", "path": "scripts/forever.sh"], timeout: 1).result.get()
        #expect(forever["timed_out"] == "killed after 1 s, with every process it started")
        #expect(forever["stdout"] == "started\n")
    }

    @Test func aRefusedApprovalRunsNothing() async throws {
        let scene = try Scene()
        let outcome = try await scene.call(["name": "report-maker", "path": "scripts/report.py", "stdin": "a b c"], approval: DenyAllApproval())
        guard case .failure(let error) = outcome.result else { Issue.record("ran without approval"); return }
        #expect(error.kind == .denied)
        #expect(outcome.refused)
        #expect(!FileManager.default.fileExists(atPath: scene.state + "/workspaces/session-7/report.txt"))
    }

    /// A script gets more only from the user: `skillhost grant SKILL network:tcp:PORT` (the registry entry a
    /// plugin's grants use) lets its scripts reach that port; revoking takes it back.
    @Test func aGrantLetsAScriptDoOneMoreThing() async throws {
        let scene = try Scene()
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        let port = String(UInt16(bigEndian: address.sin_port))
        let call: JSONValue = ["name": "script-lab", "path": "scripts/connect.py", "args": [.string(port)]]
        #expect(try await scene.call(call).result.get()["stdout"]?.stringValue?.hasPrefix("blocked:") == true)
        let change = try scene.host.grant(pluginID: "script-lab", capability: "network:tcp:\(port)")
        #expect(change.grants == ["network:tcp:\(port)"])
        #expect(try await scene.call(call).result.get()["stdout"] == "connected\n")
        _ = try scene.host.grant(pluginID: "script-lab", capability: "network:tcp:\(port)", revoke: true)
        #expect(try await scene.call(call).result.get()["stdout"]?.stringValue?.hasPrefix("blocked:") == true)
    }
}
