import Glibc
import Synchronization

/// The task executor of the stdio transport's reading thread: `tools/call` tasks prefer it, so a call
/// starts, resumes (after waiting for a place, a worker or a slow reply) and answers on the one thread
/// that also reads the input, between reads, with no hand-off to the Swift pool and back. Under a
/// pipelined burst the whole server runs on that thread and the plugin's worker on the other core.
///
/// Only the host's non-blocking work runs here (parsing, checks, a bounded spin for a quick reply):
/// everything that blocks runs on threads the host owns (``SkillHost``'s worker slots) and resumes the
/// call here when done. Jobs enqueued from other threads wake the loop through a pipe. After
/// ``close()`` jobs go to the global concurrent executor instead, so a task that outlives the loop
/// still runs.
public final class MCPReadLoopExecutor: TaskExecutor, @unchecked Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var closed = false
    }

    private let queue = Mutex(Queue())
    /// Read end and write end of the wake-up pipe (non-blocking, close-on-exec).
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// The loop thread's job buffer between ``runJobs()`` calls (only that thread touches it).
    nonisolated(unsafe) private var spareBatch: [UnownedJob] = []
    /// `pthread_self()` of the loop's thread while it runs (0 before and after).
    private let loopThread = Atomic<UInt>(0)

    /// An executor; its loop runs in ``MCPStdioTransport/run(_:)``.
    public init() {
        // Made before any worker is started (the transport makes it first), so no child inherits it
        // between `pipe` and `fcntl`.
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    /// Whether the wake-up pipe could be made; without it the transport does not use this executor.
    var isUsable: Bool { wakeRead >= 0 }

    deinit {
        if wakeRead >= 0 { Glibc.close(wakeRead) }
        if wakeWrite >= 0 { Glibc.close(wakeWrite) }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let (accepted, wake) = queue.withLock { queue -> (Bool, Bool) in
            if queue.closed { return (false, false) }
            queue.jobs.append(unowned)
            return (true, queue.jobs.count == 1)
        }
        guard accepted else {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
            return
        }
        // The loop drains the queue before it waits: only a job that finds the queue empty, from another
        // thread, must wake it.
        if wake, loopThread.load(ordering: .relaxed) != UInt(pthread_self()) {
            var byte: UInt8 = 1
            _ = Glibc.write(wakeWrite, &byte, 1)
        }
    }

    /// Marks the calling thread as the loop's thread.
    func enterLoop() { loopThread.store(UInt(pthread_self()), ordering: .relaxed) }

    /// Runs every queued job, and the jobs they queue, until the queue is empty. On the loop's thread.
    func runJobs() {
        // The loop's buffer, swapped with the queue's, so that neither is allocated anew per batch.
        var batch = spareBatch
        spareBatch = []
        defer { spareBatch = batch }
        while true {
            queue.withLock { queue in swap(&batch, &queue.jobs) }
            if batch.isEmpty { return }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Readable when a job was queued from another thread (for a loop that waits on other descriptors too:
    /// ``HTTPServer/watch(_:)``); empty it with ``drainWakeups()``.
    var wakeDescriptor: Int32 { wakeRead }

    /// Whether jobs wait to run.
    var hasJobs: Bool { queue.withLock { !$0.jobs.isEmpty } }

    /// Empties the wake-up pipe (after a wait on ``wakeDescriptor`` ended with it readable).
    func drainWakeups() {
        var sink = [UInt8](repeating: 0, count: 256)
        while Glibc.read(wakeRead, &sink, sink.count) > 0 {}
    }

    /// Blocks until a job is queued or, when `input` is given, that descriptor is readable (or closed); also
    /// until one of `watched` is readable, or `milliseconds` passed (-1: no limit). Returns whether `input`
    /// is ready. On the loop's thread, after ``runJobs()``.
    func wait(input: Int32?, watching watched: [Int32] = [], milliseconds: Int32 = -1) -> Bool {
        if queue.withLock({ !$0.jobs.isEmpty }) { return false }
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        descriptors.append(pollfd(fd: input ?? -1, events: Int16(POLLIN), revents: 0))
        for descriptor in watched { descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        while poll(&descriptors, nfds_t(descriptors.count), milliseconds) < 0, errno == EINTR {}
        if descriptors[0].revents != 0 { drainWakeups() }
        return input != nil && descriptors[1].revents != 0
    }

    /// The loop ends: jobs from now on run on the global concurrent executor; queued ones are moved there.
    func close() {
        let left = queue.withLock { queue in
            queue.closed = true
            defer { queue.jobs = [] }
            return queue.jobs
        }
        loopThread.store(0, ordering: .relaxed)
        for job in left { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
}
