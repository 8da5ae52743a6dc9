import Foundation
import Testing

/// A worker dies with the host that started it, even with `sandbox: off` and a host killed with SIGKILL
/// (which runs no clean-up): every worker arms PR_SET_PDEATHSIG, not only sandboxed ones.
@Suite("Workers die with their host")
struct WorkerLifetimeTests {
    /// Whether `pid` still runs (a zombie waiting for its new parent to reap it counts as gone).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    @Test("an unsandboxed worker dies when its host is killed with SIGKILL", .timeLimit(.minutes(1)))
    func unsandboxedWorkerDiesWithKilledHost() async throws {
        let binary = try TestPackage.skillhostBinary()
        let plugin = try HostTestSupport.fixturePlugin()
        let folder = TestPackage.temporaryDirectory("worker-lifetime")
        let pidFile = folder + "/worker.pid"
        // The "host" is a shell: it starts a worker (no --sandbox words: sandbox off) whose stdin stays open,
        // writes the worker's pid, and waits. The worker's parent is the shell.
        // `sleep` keeps the worker's stdin open long after the test ends, so only the death signal can end it.
        let script = #"mkfifo "$2.fifo" && { sleep 120 > "$2.fifo" & s=$!; "$0" __worker "$1" < "$2.fifo" & echo "$! $s" > "$2.tmp" && mv "$2.tmp" "$2"; wait; }"#
        let host = Process()
        host.executableURL = URL(fileURLWithPath: "/bin/sh")
        host.arguments = ["-c", script, binary, plugin, pidFile]
        host.standardOutput = FileHandle.nullDevice
        host.standardError = FileHandle.nullDevice
        try host.run()
        var worker: Int32 = 0
        var feeder: Int32 = 0
        for _ in 0..<200 where worker == 0 {
            let words = ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: " ")
            if words.count == 2, let pid = Int32(words[0]), let sleeper = Int32(words[1].trimmingCharacters(in: .whitespacesAndNewlines)) {
                worker = pid
                feeder = sleeper
            } else {
                try await Task.sleep(for: .milliseconds(25))
            }
        }
        try #require(worker > 0, "the shell did not start a worker")
        defer {
            if Self.isRunning(worker) { kill(worker, SIGKILL) }
            if Self.isRunning(feeder) { kill(feeder, SIGKILL) }
        }
        // Give the worker time to reach its entry point (where the death signal is armed) and load the plugin.
        try await Task.sleep(for: .milliseconds(800))
        try #require(Self.isRunning(worker), "the worker did not stay up while its host lived")
        let killedAt = Date()
        kill(host.processIdentifier, SIGKILL)
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !Self.isRunning(worker)
            if !gone { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(gone, "worker \(worker) outlived its host killed with SIGKILL")
        #expect(Date().timeIntervalSince(killedAt) < 10, "the worker ended on its own, not with its host")
        // Foundation notices the shell's end only once every holder of its pipes is gone: end the feeder first.
        kill(feeder, SIGKILL)
        host.waitUntilExit()
    }
}
