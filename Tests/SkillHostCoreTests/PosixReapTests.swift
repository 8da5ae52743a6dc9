import Foundation
@testable import SkillHostCore
import Testing

/// The one reap path (SkillPosix's `Posix.reap`) that the scanner child's `ChildProcess` and the worker's
/// `WorkerProcess` share, and the one wording of how a process ended.
@Suite("Posix reaping")
struct PosixReapTests {
    @Test("a wait status decodes to an exit status or a signal, worded one way")
    func terminationWording() {
        #expect(Posix.Termination(waitStatus: 3 << 8) == .exited(3))
        #expect(Posix.Termination(waitStatus: SIGSEGV) == .signaled(SIGSEGV))
        #expect(Posix.Termination.exited(3).description == "exit status 3")
        #expect(Posix.Termination.signaled(SIGSEGV).description == "signal 11 (SIGSEGV, Segmentation fault)")
    }

    @Test("reaping with a wait: nil while the child runs, then how it ended")
    func reapWithin() throws {
        let running = try Posix.spawn("/bin/sh", arguments: ["-c", "sleep 5"], stdout: -1, stderr: -1, environment: [])
        #expect(Posix.reap(running, waitingUpTo: 20) == nil)
        Posix.sendSignal(SIGKILL, to: running)
        #expect(Posix.reap(running, waitingUpTo: nil) == .signaled(SIGKILL))
        let exiting = try Posix.spawn("/bin/sh", arguments: ["-c", "exit 3"], stdout: -1, stderr: -1, environment: [])
        #expect(Posix.reap(exiting, waitingUpTo: 5000) == .exited(3))
        // Reaped already: someone else took its status, so all that is known is that it is gone.
        #expect(Posix.reap(exiting, waitingUpTo: 10) == .exited(-1))
    }

    @Test("a timed reap sleeps on the child's pidfd: it wakes when the child ends, or says it still runs")
    func awaitEndWakesOnExit() throws {
        let running = try Posix.spawn("/bin/sh", arguments: ["-c", "sleep 5"], stdout: -1, stderr: -1, environment: [])
        #expect(Posix.awaitEnd(of: running, milliseconds: 20) == false)
        Posix.sendSignal(SIGTERM, to: running)
        // Waits (up to 5 s) until the end, then the status is there without waiting.
        #expect(Posix.awaitEnd(of: running, milliseconds: 5000) == true)
        #expect(Posix.reap(running, blocking: false) == .signaled(SIGTERM))
        // A child that ends during a timed reap is reaped by it.
        let exiting = try Posix.spawn("/bin/sh", arguments: ["-c", "sleep 0.05; exit 4"], stdout: -1, stderr: -1, environment: [])
        #expect(Posix.reap(exiting, waitingUpTo: 5000) == .exited(4))
    }
}
