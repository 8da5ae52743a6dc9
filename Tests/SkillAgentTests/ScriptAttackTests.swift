import Foundation
import SkillHostCore
import SkillJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The attacker's suite inside a skill's script (issue #30): the attempts of Tests/Fixtures/Attack (files,
/// links, /proc, ptrace, signals, sockets, the terminal, descriptors, namespaces, the kernel, processes,
/// privileges, other processes, the environment), loaded by a Python script (attack_script.py, ctypes) of an
/// instruction skill and run through `run_skill_script` from `chat` and from `mcp`, as root and as an
/// unprivileged user. Every attempt fails exactly as inside a native plugin, nothing it aimed at changes, and
/// with the sandbox off the same script gets through (the suite can fail).
@Suite("The attacker's suite in a script", .serialized, .enabled(if: KernelSandbox.landlockABI >= 6 && AttackWorld.available(.user), "needs Landlock ABI 6 and root (to act as a second user)"))
struct ScriptAttackTests {
    enum FrontEnd: String, CaseIterable, Sendable {
        case chat, mcp
    }

    /// What a script may do that a plugin without the `processes` grant may not: start programs (its interpreter
    /// already is one; python and shell scripts run others), so exec — of a file or of a memfd — gets through
    /// by policy, as in a plugin granted `processes`. What they start stays in the script's sandbox (the same
    /// namespaces, Landlock domain and seccomp filter, inherited across exec), which every other attempt checks.
    static let allowedByPolicy: Set<String> = ["start_process", "memfd_exec"]

    /// A world as `identity` with the attack script's skill added (`attack-script`).
    static func world(_ identity: AttackWorld.Identity) throws -> AttackWorld {
        let world = try AttackWorld(identity)
        let folder = world.root + "/src/attack-script"
        try TestPackage.write(
            "---\nname: attack-script\ndescription: The attacker's suite as a script, for SkillHost's sandbox tests.\n---\nRun scripts/attack.py with the world on stdin.\n",
            to: folder + "/SKILL.md")
        let attack = TestPackage.root + "/Tests/Fixtures/Attack/"
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: attack + "attack_script.py", toPath: folder + "/scripts/attack.py")
        let library = try CFixtureCompiler.sharedLibrary([attack + "attack_attempts.c"], flags: ["-O1"], name: "libattack_attempts.so")
        try FileManager.default.copyItem(atPath: library, toPath: folder + "/scripts/libattack_attempts.so")
        try world.own(world.root + "/src")
        let added = try world.skillhost(["add", folder])
        guard added.status == 0 else { throw TestFailure("add attack-script exited \(added.status): \(added.stderr)") }
        return world
    }

    /// Runs the attack script through `frontEnd`; its results.
    static func attack(_ world: AttackWorld, via frontEnd: FrontEnd, environment: [String: String] = [:]) throws -> JSONValue {
        let arguments: JSONValue = ["name": "attack-script", "path": "scripts/attack.py", "stdin": .string(world.worldArguments.serialized())]
        let run = switch frontEnd {
        case .chat: try SandboxAttackTests.viaChat(world, toolName: "run_skill_script", shownAs: "run_skill_script", arguments: arguments, environment: environment)
        case .mcp: try SandboxAttackTests.viaMCP(world, toolName: "run_skill_script", arguments: arguments, options: ["--allow-writes"], environment: environment)
        }
        guard run["exit_status"] == 0, let stdout = run["stdout"]?.stringValue, let results = try? JSONValue(parsing: stdout) else {
            throw TestFailure("the attack script did not finish: \(run)")
        }
        return results
    }

    @Test("every attempt fails inside a script, and nothing it aimed at changed", arguments: AttackWorld.Identity.allCases)
    func everyAttemptFails(_ identity: AttackWorld.Identity) throws {
        for frontEnd in FrontEnd.allCases {
            let world = try Self.world(identity)
            let before = world.victimState()
            let result = try Self.attack(world, via: frontEnd)
            let attempts = result["results"]?.arrayValue ?? []
            #expect(attempts.count >= 30, "\(frontEnd): only \(attempts.count) attempts")
            let covered = Set(attempts.compactMap { $0["threat"]?.stringValue })
            #expect(SandboxAttackTests.classes.isSubset(of: covered), "\(frontEnd): classes not tried: \(SandboxAttackTests.classes.subtracting(covered))")
            let untried = attempts.filter { ($0["detail"]?.stringValue ?? "").hasPrefix("not tried") }
            #expect(untried.isEmpty, "\(frontEnd): not tried: \(untried)")
            let escaped = SandboxAttackTests.escaped(result).filter { !Self.allowedByPolicy.contains($0.key) }
            #expect(escaped.isEmpty, "\(identity) script via \(frontEnd): got through: \(escaped)")
            usleep(100_000)  // a signal that got through would be logged by now
            #expect(world.victimState() == before, "\(frontEnd): the victim changed")
            #expect(world.plantedFiles().isEmpty, "\(frontEnd): planted \(world.plantedFiles())")
            #expect(world.datagramsReceived() == 0, "\(frontEnd): a datagram got out")
        }
    }

    @Test("the same script with the kernel's layers unavailable gets through: the suite can fail")
    func theSuiteCanFail() throws {
        let world = try Self.world(.root)
        // Run the script's interpreter directly, unconfined, with the world on stdin: what a host without the
        // sandbox would do.
        let script = world.root + "/skills/attack-script/scripts/attack.py"
        let run = try TestProcess.run("/usr/bin/python3", [script], stdin: world.worldArguments.serialized())
        let escaped = SandboxAttackTests.escaped(try JSONValue(parsing: run.stdout))
        #expect(escaped.count >= 10, "unconfined, only \(escaped.count) attempts got through: \(escaped.keys.sorted())")
    }
}
