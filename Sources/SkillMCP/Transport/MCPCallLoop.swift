import Foundation
import Glibc
import SkillHTTP
import SkillHostCore
import Synchronization

/// A thread that runs the `tools/call` tasks of the HTTP transport's servers, the way the stdio transport's
/// read loop runs its own: calls start, wait and resume on this one thread, and their workers' replies are
/// collected here (``CallReplyPoller``) instead of being spun for. With ``serve(_:)`` the same thread also
/// runs the ``HTTPServer``'s event loop: a request is read, its call run and its answer written here, with
/// no thread hand-off but the worker's. Give ``executor`` and ``replyPoller`` to ``MCPServer``; jobs from
/// other threads wake the loop through its pipe.
public final class MCPCallLoop: Sendable {
    private let loop = MCPReadLoopExecutor()
    private let poller = CallReplyPoller()
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let woke: @Sendable () -> Void
    private let http = Mutex<HTTPServer?>(nil)

    /// Starts the loop's thread. `woke` runs each time the loop wakes to new work, before the work (with
    /// ``serve(_:)``: before each turn's requests go to the transport): the HTTP service begins a call batch there (``SkillBackend/inputArrived()``), so the calls of requests
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

    /// Runs `server`'s event loop on this loop's thread from now on (instead of ``HTTPServer/start()``): its
    /// handler is then called here, where the calls it starts run. Stop the server before this loop.
    public func serve(_ server: HTTPServer) {
        server.watch(loop.wakeDescriptor)
        server.beforeRequests(woke)
        http.withLock { $0 = server }
        if loop.isUsable { Task(executorPreference: loop) {} }
    }

    /// Ends the loop (jobs queued later run on the global executor) and waits for its thread.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        // Wake it: an empty job through the executor.
        if loop.isUsable { Task(executorPreference: loop) {} }
        finished.wait()
    }

    /// After a turn of the HTTP server's loop (which began a call batch before its requests): the wake-ups
    /// emptied.
    private func take(_ serviced: HTTPServer.Serviced) {
        if serviced.watchedReady { loop.drainWakeups() }
    }

    private func run() {
        loop.enterLoop()
        defer {
            loop.close()
            finished.signal()
        }
        var server: HTTPServer?
        var spins = 0
        while !stopped.load(ordering: .relaxed) {
            loop.runJobs()
            if poller.poll() > 0 { continue }
            if server == nil { server = http.withLock { $0 } }
            if poller.hasPending {
                // Only replies to wait for (each at most the poller's budget, then its slot's thread waits):
                // now and then take new requests without waiting, else give the core to the workers, as the
                // stdio loop does. A sleep here (usleep(20) is ~70 µs with the kernel's timer slack) paced
                // every batch of calls.
                spins &+= 1
                if let server, spins & 3 == 0 {
                    take(server.service(waitingUpTo: 0))
                } else {
                    sched_yield()
                }
            } else if let server {
                if loop.hasJobs { continue }
                take(server.service(waitingUpTo: -1))
            } else {
                _ = loop.wait(input: nil)
                woke()
            }
        }
    }
}
