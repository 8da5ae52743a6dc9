import Foundation
import SkillHostCore
import Testing

/// A program that is not skillhost (an interpreter, an MCP server) runs in the worker's sandbox
/// (`skillhost-sandbox --confine`): it writes only where the policy says, reads nothing of the user's home,
/// opens no socket without `network`, and leaves nothing running when it ends (issues #30, #35 build on it).
@Suite("Programs confined by skillhost-sandbox", .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct ConfinedProgramTests {
    @Test("a shell script writes its work folder and nothing else, opens no socket, leaves no process behind")
    func shellIsConfined() throws {
        let root = HostTestSupport.temporaryDirectory("skillhost-confined")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let work = root + "/work", home = root + "/home"
        try HostTestSupport.write("secret\n", to: home + "/.ssh/id_ed25519")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let script = """
            echo made > made.txt && echo wrote-work
            cat \(home)/.ssh/id_ed25519 2>/dev/null && echo read-home
            echo x > \(home)/planted 2>/dev/null && echo wrote-home
            echo x > /tmp/skillhost-confined-\(getpid()) 2>/dev/null && echo wrote-tmp
            python3 -c 'import socket; socket.socket()' 2>/dev/null && echo made-socket
            sleep 30 &
            echo "background $!"
            ls /proc | grep -c '^[0-9]'
            """
        let confined = ConfinedProgram(
            program: "/bin/sh", arguments: ["-c", script],
            policy: SandboxPolicy(mode: .required, rules: [.init(path: work, access: .readWrite)]), workingDirectory: work)
        let (executable, arguments) = try confined.launchCommand(hostExecutable: try HostilePlugins.workerExecutable())
        let started = Date()
        let run = try HostTestSupport.run(executable, arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(Date().timeIntervalSince(started) < 20, "the background sleep kept the program alive")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("wrote-work") && FileManager.default.fileExists(atPath: work + "/made.txt"), "\(run.stdout)")
        for escaped in ["read-home", "wrote-home", "wrote-tmp", "made-socket"] {
            #expect(!lines.contains(escaped), "\(escaped): \(run.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: home + "/planted"))
        // Its own PID namespace: the shell, the sleep, ls, grep and the namespace's init, nothing else.
        #expect(Int(lines.last ?? "") ?? 99 <= 6, "\(run.stdout)")
    }

    @Test("without skillhost-sandbox beside the host, a program is refused, not run unconfined")
    func refusedWithoutTheHelper() throws {
        let confined = ConfinedProgram(program: "/bin/true", arguments: [], policy: SandboxPolicy(mode: .required, rules: []))
        #expect(throws: HostError.self) { try confined.launchCommand(hostExecutable: "/nonexistent/skillhost") }
    }
}
