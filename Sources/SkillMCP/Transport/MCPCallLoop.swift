import Foundation
import Glibc
import SkillHostCore
import Synchronization

/// A thread that runs the `tools/call` tasks of servers whose requests arrive on other threads (the HTTP
/// transport's connections), the way the stdio transport's read loop runs its own: calls start, wait and
/// resume on this one thread, and their workers' replies are collected here (``CallReplyPoller``) instead of
/// being spun for, so a burst from many connections keeps the plugins' workers busy without a thread hand-off
/// per step. Give ``executor`` and ``replyPoller`` to ``MCPServer``; jobs from other threads wake the loop
/// through its pipe.
public final class MCPCallLoop: Sendable {
    private let loop = MCPReadLoopExecutor()
    private let poller = CallReplyPoller()
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let woke: @Sendable () -> Void

    /// Starts the loop's thread. `woke` runs each time the loop wakes to new work, before the work: the
    /// HTTP service begins a call batch there (``SkillBackend/inputArrived()``), so the calls of requests
    /// that arrived by then share one look at the host's files.
    public init(woke: @escaping @Sendable () -> Void = {}) {
        self.woke = woke
        guard loop.isUsable else {
            finished.signal()
            return
        }
        let thread = Thread { [self] in run() }
        thread.name = "skillhost-mcp-calls"
        thread.start()
    }

    /// Where `tools/call` tasks run (nil when the loop could not be set up: the server then uses its default).
    public var executor: (any TaskExecutor)? { loop.isUsable ? loop : nil }

    /// The worker replies of those calls (nil without the loop).
    public var replyPoller: CallReplyPoller? { loop.isUsable ? poller : nil }

    /// Ends the loop (jobs queued later run on the global executor) and waits for its thread.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // Wake it: an empty job through the executor.
        if loop.isUsable { Task(executorPreference: loop) {} }
        finished.wait()
    }

    private func run() {
        loop.enterLoop()
        defer {
            loop.close()
            finished.signal()
        }
        while !stopped.load(ordering: .relaxed) {
            loop.runJobs()
            if poller.poll() > 0 { continue }
            if poller.hasPending {
                // Only replies to wait for (each at most the poller's budget, then its slot's thread waits):
                // give the core to the workers and the connections' threads, as the stdio loop does. A sleep
                // here (usleep(20) is ~70 µs with the kernel's timer slack) paced every batch of calls.
                sched_yield()
            } else {
                _ = loop.wait(input: nil)
                woke()
            }
        }
    }
}
