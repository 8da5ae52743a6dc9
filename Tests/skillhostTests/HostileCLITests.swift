import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The hostile plugin through the `skillhost` CLI: each `call` is its own process, crash counts persist
/// across them, `list` shows the broken mark, `rescan` clears it, and timeouts come from the registry.
@Suite("Hostile plugins through the CLI")
struct HostileCLITests {
    private struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func makeRoot() throws -> String {
        try HostilePlugins.installedRoot(prefix: "skillhost-cli-hostile").root
    }

    private func skillhost(_ arguments: [String], root: String) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try HostilePlugins.workerExecutable())
        process.arguments = arguments + [
            "--plugins", root + "/plugins", "--registry", root + "/skill_registry.json", "--cache", root + "/cache",
        ]
        // Every call is recorded: in this test's own history, never the user's.
        var environment = ProcessInfo.processInfo.environment
        environment["SKILLHOST_STATE"] = root + "/state"
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    @Test("five crashes in separate processes mark the plugin broken in list; rescan gives it another chance")
    func brokenAcrossProcesses() throws {
        let root = try makeRoot()
        for attempt in 1...5 {
            let result = try skillhost(["call", "hostile.segfault"], root: root)
            #expect(result.status == 8, "attempt \(attempt): \(result.stderr)")
            let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("skillhost:") }
            #expect(errorLines.count == 1)
            #expect(errorLines.first?.contains("plugin hostile crashed: signal 11 (SIGSEGV, Segmentation fault) in skill hostile.segfault") == true)
        }
        let refused = try skillhost(["call", "hostile.ok"], root: root)
        #expect(refused.status == 8)
        #expect(refused.stderr.contains("broken"), "\(refused.stderr)")

        let listed = try JSONValue(parsing: try skillhost(["list", "--json"], root: root).stdout)
        let plugin = listed["plugins"]?.arrayValue?.first { $0["id"] == "hostile" }
        #expect(plugin?["status"] == "broken")
        #expect(plugin?["error"]?.stringValue?.contains("signal 11") == true)

        #expect(try skillhost(["rescan"], root: root).status == 0)
        let healthy = try skillhost(["call", "hostile.ok", #"{"a":1}"#], root: root)
        #expect(healthy.status == 0, "\(healthy.stderr)")
        #expect(try JSONValue(parsing: healthy.stdout) == ["ok": true, "echo": ["a": 1]])
    }

    @Test("the registry's timeout for a skill is enforced by killing the worker (exit code 7)")
    func registryTimeout() throws {
        let root = try makeRoot()
        try Data(#"{"version": 1, "plugins": {"hostile": {"skills": {"hostile.hang": {"timeout": 1}}}}}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/skill_registry.json"))
        let started = Date()
        let result = try skillhost(["call", "hostile.hang"], root: root)
        #expect(result.status == 7, "\(result.stderr)")
        #expect(result.stderr.contains("skill hostile.hang timed out after") && result.stderr.contains("(limit 1 s)"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
