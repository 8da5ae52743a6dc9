import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One place in a plugin's worker pool: a thread the host owns and, while it lives, the worker process that
/// thread talks to. A slot serves one call at a time, or up to the queue depth of pipelined calls queued in its
/// worker (`WorkerSlot+Queue.swift`); the pool hands slots out.
///
/// Ownership, as the compiler checks it: everything the slot owns that changes — its worker process, the
/// file it loaded, the request buffer, the queued calls — is one value, ``Owned``, reachable only through
/// ``owned``'s lock; the rest is immutable or atomic, so the slot is `Sendable` without `@unchecked`. Work that
/// blocks (writing a request, waiting for a reply, starting a worker) runs outside the lock on a reference
/// taken under it: the holder of the slot's place (the calling task for the fast path, then the slot's own
/// ``thread``), or the poller of queued calls. ``cancel()`` and ``cancelQueued(_:)`` are the only calls from
/// elsewhere, and touch only atomics and the lock.
final class WorkerSlot: Sendable {
    /// How one call through this slot ended.
    enum Outcome: Sendable {
        /// The worker answered.
        case reply(WorkerCallReply)
        /// The worker failed; `whileLoading` when it never became ready.
        case failure(WorkerProcess.Failure, whileLoading: Bool)
        /// ``cancel()`` stopped the call.
        case cancelled
        /// A queued call that did not run (`WorkerSlot+Queue.swift`); run it again, `exclusive`ly when its
        /// request is too large to queue.
        case notStarted(exclusive: Bool)
    }

    /// How long the calling thread polls for a quick reply before handing the wait to ``thread``. A trivial
    /// skill answers in a few microseconds; skipping two thread hand-offs saves about a third of such a call.
    static let spinNanoseconds: UInt64 = 30_000
    /// How long a ``CallReplyPoller`` looks for a reply before the slot's thread takes over the wait. Longer
    /// than the spin: the poller's loop does other work meanwhile, and a worker that was asleep on its pipe
    /// still answers into the slot once it woke, so the host side needs no wake-up of its own.
    static let pollNanoseconds: UInt64 = 2_000_000
    /// Requests larger than this skip the fast path (their write could block the calling thread).
    static let fastPathFrameLimit = 32 << 10
    /// Requests larger than this are not queued: with at most ``queuedEntryLimit`` × 4 KiB out, a batch's
    /// `write` never waits for the worker (a pipe holds 64 KiB), so the loop that writes it never blocks.
    static let queuedFrameLimit = 4 << 10

    /// What the slot owns, behind one lock: its worker and what it knows about it, and the calls queued in it.
    struct Owned {
        /// The worker process, while it lives.
        var process: WorkerProcess?
        /// The plugin file as it was when ``process`` loaded it; a changed file retires the worker.
        var loadedFile: Posix.FileStatus?
        /// When the fast path last compared the plugin file with ``loadedFile`` (CLOCK_MONOTONIC nanoseconds).
        var lastFileCheck: UInt64 = 0
        /// The last request frame of the slot's own calls (its storage is reused for the next).
        var sendBuffer: [UInt8] = []
        /// Whether the call in flight is collected by a ``CallReplyPoller`` (its caller is a loop that does
        /// other work between requests); told to the worker with each request (``WorkerProcess/pipelined``).
        var pipelined = false
        /// Calls queued in the worker (`WorkerSlot+Queue.swift`).
        var queue = CallQueue()

        /// Whether the plugin file is still the one the worker loaded, looked at (a `stat`) at most every
        /// ``fileCheckInterval``; the fast path and queued calls ask it, the slow path always looks itself.
        mutating func loadedFileIsCurrent(_ configuration: WorkerPoolConfiguration) -> Bool {
            let now = Posix.monotonicNanoseconds()
            guard now &- lastFileCheck > WorkerSlot.fileCheckInterval else { return true }
            guard (try? Posix.status(ofPath: configuration.pluginPath)) == loadedFile else { return false }
            lastFileCheck = now
            return true
        }

        /// Removes the worker (to stop it after reporting).
        mutating func takeProcess() -> WorkerProcess? {
            defer {
                process = nil
                loadedFile = nil
            }
            return process
        }
    }

    /// Everything the slot owns that changes.
    let owned = Mutex(Owned())
    /// Whether the pool may give this slot to queued calls: its worker lives, can queue, and the slot is
    /// not draining. Kept by the slot, read by the pool.
    let acceptsQueuedCalls = Atomic<Bool>(false)
    /// Told when the slot takes queued calls again, or lost its worker, after draining (the pool serves its
    /// waiters then).
    let becameIdle: @Sendable () -> Void

    /// The thread all of this slot's blocking work runs on.
    let thread = BlockingThread()
    /// How often the fast path looks at the plugin file (a `stat`); the slow path always does.
    static let fileCheckInterval: UInt64 = 50_000_000
    /// The worker of the call in flight, for ``cancel()`` from another thread.
    private let inFlight = Mutex<WorkerProcess?>(nil)
    private let cancelled = Atomic<Bool>(false)
    /// The pid of the worker this slot started last (0: none yet, or its launch failed), for ``workerPID``.
    private let launchedPID = Atomic<Int32>(0)

    /// A slot without a worker yet; `becameIdle` hears when it takes queued calls again after draining.
    init(becameIdle: @escaping @Sendable () -> Void = {}) {
        self.becameIdle = becameIdle
    }

    /// The pid of the worker that served (or failed) this slot's last call; nil when it never got one.
    /// Read by the slot's holder after ``call(_:deadline:configuration:)`` returns.
    var workerPID: Int32? {
        let pid = launchedPID.load(ordering: .sequentiallyConsistent)
        return pid > 0 ? pid : nil
    }

    /// Runs one call: starts a worker first if there is none (or its file changed), sends the request and
    /// waits for the reply until `deadline` (CLOCK_MONOTONIC nanoseconds). Cancelling the task kills the
    /// worker. A worker that failed is stopped after the outcome is returned, so a timeout is reported on
    /// time even when the worker is slow to die.
    nonisolated(nonsending) func call(
        _ request: WorkerCallRequest, deadline: UInt64, configuration: WorkerPoolConfiguration
    ) async -> Outcome {
        cancelled.store(false, ordering: .sequentiallyConsistent)
        let outcome: Outcome = await withTaskCancellationHandler {
            let poller = CallReplyPoller.current
            // The frame is made in the slot's buffer, taken out of the lock and put back (no copy of it).
            let (buffer, idle) = owned.withLock { owned in
                owned.pipelined = poller != nil
                defer { owned.sendBuffer = [] }
                return (owned.sendBuffer, owned.queue.isIdle)
            }
            let frame = request.encodedFrame(reusing: buffer)
            owned.withLock { $0.sendBuffer = frame }
            // Answers to withdrawn queued calls may still be out: the slot's thread reads them first.
            let fast: (outcome: Outcome?, sent: Bool) =
                idle ? fastPath(frame, deadline: deadline, configuration: configuration, spin: poller == nil) : (nil, false)
            if let outcome = fast.outcome { return outcome }
            let sent = fast.sent
            if sent, let poller {
                // The request is with the worker: let the caller's loop look for the reply between other work.
                return await withUnsafeContinuation { continuation in
                    let since = Posix.monotonicNanoseconds()
                    poller.add { [self] in
                        if let worker = owned.withLock({ $0.process }), worker.pollSlotReply(),
                            case .success(let reply) = worker.receiveReply(deadline: deadline)
                        {
                            inFlight.withLock { $0 = nil }
                            continuation.resume(returning: .reply(reply))
                            return true
                        }
                        if Posix.monotonicNanoseconds() &- since < Self.pollNanoseconds,
                            !cancelled.load(ordering: .sequentiallyConsistent)
                        {
                            return false
                        }
                        handOff(sent: true, deadline: deadline, configuration: configuration, continuation)
                        return true
                    }
                }
            }
            return await withUnsafeContinuation { continuation in
                handOff(sent: sent, deadline: deadline, configuration: configuration, continuation)
            }
        } onCancel: {
            cancel()
        }
        var queueable = false
        if case .reply = outcome { queueable = owned.withLock { $0.process?.canQueue ?? false } }
        acceptsQueuedCalls.store(queueable, ordering: .sequentiallyConsistent)
        return outcome
    }

    /// Finishes the call on ``thread``: waits for the reply of a request already `sent`, or runs the whole
    /// call; resumes `continuation` with the outcome.
    private func handOff(
        sent: Bool, deadline: UInt64, configuration: WorkerPoolConfiguration,
        _ continuation: UnsafeContinuation<Outcome, Never>
    ) {
        let accepted = thread.submit { [self] in
            let outcome = sent ? awaitSentCall(deadline: deadline) : run(deadline: deadline, configuration: configuration)
            inFlight.withLock { $0 = nil }
            var retired: WorkerProcess?
            if case .reply = outcome {} else { retired = owned.withLock { $0.takeProcess() } }
            continuation.resume(returning: outcome)
            retired?.stop()
        }
        // The pool shut down between handing out this slot and now.
        if !accepted { continuation.resume(returning: .cancelled) }
    }

    /// Cancels the call in flight: kills its worker (SIGKILL). Any thread.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        inFlight.withLock { $0?.kill(SIGKILL) }
    }

    /// Stops the worker, if any, and ends the thread after queued work. Returns once done.
    func shutdown() async {
        await thread.run { [self] in owned.withLock { $0.takeProcess() }?.stop() }
        thread.finish()
    }

    /// On the calling thread: with a live worker for an unchanged file, sends the request `frame` and polls
    /// briefly for the reply. Returns the outcome when the reply came back whole; otherwise whether the request
    /// was sent, and the slot's thread takes over.
    /// With `spin` false (a ``CallReplyPoller`` waits for the reply instead) it looks for the reply once.
    private func fastPath(_ frame: [UInt8], deadline: UInt64, configuration: WorkerPoolConfiguration, spin: Bool) -> (outcome: Outcome?, sent: Bool) {
        guard frame.count <= Self.fastPathFrameLimit, !cancelled.load(ordering: .sequentiallyConsistent),
            let (worker, pipelined) = owned.withLock({ owned -> (WorkerProcess, Bool)? in
                guard let worker = owned.process, worker.requestsSent == worker.repliesReceived,
                    owned.loadedFileIsCurrent(configuration)
                else { return nil }
                return (worker, owned.pipelined)
            })
        else { return (nil, false) }
        inFlight.withLock { $0 = worker }
        worker.pipelined = pipelined
        guard case .success = worker.send(frame) else { return (nil, false) }
        guard spin ? worker.replyArrives(within: Self.spinNanoseconds) : worker.pollSlotReply(),
            case .success(let reply) = worker.receiveReply(deadline: deadline)
        else { return (nil, true) }
        inFlight.withLock { $0 = nil }
        return (.reply(reply), true)
    }

    /// On ``thread``: the rest of a call whose request the fast path already sent.
    private func awaitSentCall(deadline: UInt64) -> Outcome {
        guard let worker = owned.withLock({ $0.process }) else { return .failure(.system("the worker vanished"), whileLoading: false) }
        return finish(worker.awaitReply(deadline: deadline))
    }

    /// On ``thread``: the whole call.
    private func run(deadline: UInt64, configuration: WorkerPoolConfiguration) -> Outcome {
        if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
        // What queued calls left: entries taken back, whose answers are still on the pipe.
        let (left, frame, pipelined) = owned.withLock { owned in
            owned.queue.entries.removeAll()
            return (owned.process, owned.sendBuffer, owned.pipelined)
        }
        if let worker = left, !worker.discardRepliesOut(deadline: Posix.monotonicNanoseconds() + 5_000_000_000) {
            owned.withLock { $0.takeProcess() }?.stop()
        }
        let file = try? Posix.status(ofPath: configuration.pluginPath)
        // The file was replaced or rewritten: the worker runs the old code (or a torn mapping of it).
        let stale = owned.withLock { owned in owned.process != nil && file != owned.loadedFile ? owned.takeProcess() : nil }
        stale?.stop()
        let idle = owned.withLock { $0.process }
        idle?.pipelined = pipelined
        if let idle, case .failure(.closed) = idle.send(frame) {
            // The worker died while idle (killed from outside, out of memory): the request never reached
            // it, so a fresh worker can take it without running anything twice.
            owned.withLock { $0.takeProcess() }?.stop()
        } else if let worker = idle {
            inFlight.withLock { $0 = worker }
            return finish(worker.awaitReply(deadline: deadline))
        }
        let now = Posix.monotonicNanoseconds()
        guard deadline > now else { return .failure(.timedOut, whileLoading: true) }
        launchedPID.store(0, ordering: .sequentiallyConsistent)
        let worker: WorkerProcess
        do {
            let startupDeadline = now + UInt64(configuration.startupTimeout * 1e9)
            worker = try WorkerProcess.launch(
                executable: configuration.workerExecutable, pluginPath: configuration.pluginPath,
                limits: configuration.limits, startupTimeout: Double(min(startupDeadline, deadline) - now) / 1e9,
                sandbox: configuration.sandbox, environment: configuration.environment,
                output: (configuration.pluginID, configuration.output),
                spare: configuration.prestart?.take(executable: configuration.workerExecutable),
                started: { [self] loading in
                    // From now on a cancellation kills the worker even while it loads the plugin.
                    inFlight.withLock { $0 = loading }
                    launchedPID.store(loading.pid, ordering: .sequentiallyConsistent)
                    if cancelled.load(ordering: .sequentiallyConsistent) { loading.kill(SIGKILL) }
                })
        } catch {
            return cancelled.load(ordering: .sequentiallyConsistent) ? .cancelled : .failure(error, whileLoading: true)
        }
        owned.withLock { owned in
            owned.process = worker
            owned.loadedFile = file
        }
        inFlight.withLock { $0 = worker }
        if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
        worker.pipelined = pipelined
        if case .failure(let failure) = worker.send(frame), case .system = failure {
            return finish(.failure(.system("cannot write to the worker: \(failure)")))
        }
        return finish(worker.awaitReply(deadline: deadline))
    }

    private func finish(_ result: Result<WorkerCallReply, WorkerProcess.Failure>) -> Outcome {
        switch result {
        case .success(let reply): return .reply(reply)
        case .failure(let failure):
            return cancelled.load(ordering: .sequentiallyConsistent) ? .cancelled : .failure(failure, whileLoading: false)
        }
    }

}
