import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One place in a plugin's worker pool: a thread the host owns and, while it lives, the worker process that
/// thread talks to. A slot serves one call at a time, or up to the queue depth of pipelined calls queued in its
/// worker (`WorkerSlot+Queue.swift`); the pool hands slots out.
///
/// Threading: the slot's state (`process`, `loadedFile`) belongs to whoever holds the slot from the pool,
/// and is used by one thread at a time: the calling task's thread for the fast path, then the slot's own
/// ``thread`` for anything that blocks. Queued calls (`WorkerSlot+Queue.swift`), which share the slot, use
/// it under ``queue``'s lock, or on ``thread`` while the slot drains; a call of the slot's own starts only
/// once no queued call holds the slot, and reads what queued calls left on ``thread`` first. Hand-offs go
/// through the thread's queue and the continuation, which order the accesses. ``cancel()`` (and
/// ``cancelQueued(_:)``) are the only calls from elsewhere.
final class WorkerSlot: @unchecked Sendable {
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

    /// Calls queued in the worker (`WorkerSlot+Queue.swift`).
    let queue = Mutex(CallQueue())
    /// Whether the pool may give this slot to queued calls: its worker lives, can queue, and the slot is
    /// not draining. Kept by the slot, read by the pool.
    let acceptsQueuedCalls = Atomic<Bool>(false)
    /// Told when the slot takes queued calls again, or lost its worker, after draining (the pool serves its
    /// waiters then). Set once, by the pool, before the slot is used.
    nonisolated(unsafe) var becameIdle: (@Sendable () -> Void)?

    /// The thread all of this slot's blocking work runs on.
    let thread = BlockingThread()
    var process: WorkerProcess?
    /// The plugin file as it was when ``process`` loaded it; a changed file retires the worker.
    private var loadedFile: Posix.FileStatus?
    private var sendBuffer: [UInt8] = []
    /// Whether the call in flight is collected by a ``CallReplyPoller`` (its caller is a loop that does
    /// other work between requests); told to the worker with each request (``WorkerProcess/pipelined``).
    private var pipelined = false
    /// When the fast path last compared the plugin file with ``loadedFile`` (CLOCK_MONOTONIC nanoseconds).
    private var lastFileCheck: UInt64 = 0
    /// How often the fast path looks at the plugin file (a `stat`); the slow path always does.
    static let fileCheckInterval: UInt64 = 50_000_000
    /// The worker of the call in flight, for ``cancel()`` from another thread.
    private let inFlight = Mutex<WorkerProcess?>(nil)
    private let cancelled = Atomic<Bool>(false)
    /// The pid of the worker this slot started last (0: none yet, or its launch failed), for ``workerPID``.
    private let launchedPID = Atomic<Int32>(0)

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
            sendBuffer = request.encodedFrame(reusing: sendBuffer)
            let poller = CallReplyPoller.current
            pipelined = poller != nil
            // Answers to withdrawn queued calls may still be out: the slot's thread reads them first.
            let fast: (outcome: Outcome?, sent: Bool) =
                queue.withLock({ $0.isIdle }) ? fastPath(deadline: deadline, configuration: configuration, spin: poller == nil) : (nil, false)
            if let outcome = fast.outcome { return outcome }
            let sent = fast.sent
            if sent, let poller {
                // The request is with the worker: let the caller's loop look for the reply between other work.
                return await withUnsafeContinuation { continuation in
                    let since = Posix.monotonicNanoseconds()
                    poller.add { [self] in
                        if let worker = process, worker.pollSlotReply(),
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
        if case .reply = outcome { queueable = process?.canQueue ?? false }
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
            if case .reply = outcome {} else { retired = takeProcess() }
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
        await thread.run { [self] in takeProcess()?.stop() }
        thread.finish()
    }

    /// On the calling thread: with a live worker for an unchanged file, sends the request and polls briefly
    /// for the reply. Returns the outcome when the reply came back whole; otherwise whether the request was
    /// sent, and the slot's thread takes over.
    /// With `spin` false (a ``CallReplyPoller`` waits for the reply instead) it looks for the reply once.
    private func fastPath(deadline: UInt64, configuration: WorkerPoolConfiguration, spin: Bool) -> (outcome: Outcome?, sent: Bool) {
        guard sendBuffer.count <= Self.fastPathFrameLimit, let worker = process,
            worker.requestsSent == worker.repliesReceived, !cancelled.load(ordering: .sequentiallyConsistent)
        else { return (nil, false) }
        guard loadedFileIsCurrent(configuration) else { return (nil, false) }
        inFlight.withLock { $0 = worker }
        worker.pipelined = pipelined
        guard case .success = worker.send(sendBuffer) else { return (nil, false) }
        guard spin ? worker.replyArrives(within: Self.spinNanoseconds) : worker.pollSlotReply(),
            case .success(let reply) = worker.receiveReply(deadline: deadline)
        else { return (nil, true) }
        inFlight.withLock { $0 = nil }
        return (.reply(reply), true)
    }

    /// Whether the plugin file is still the one the worker loaded, looked at (a `stat`) at most every
    /// ``fileCheckInterval``; the fast path and queued calls ask it, the slow path always looks itself.
    func loadedFileIsCurrent(_ configuration: WorkerPoolConfiguration) -> Bool {
        let now = Posix.monotonicNanoseconds()
        guard now &- lastFileCheck > Self.fileCheckInterval else { return true }
        guard (try? Posix.status(ofPath: configuration.pluginPath)) == loadedFile else { return false }
        lastFileCheck = now
        return true
    }

    /// On ``thread``: the rest of a call whose request the fast path already sent.
    private func awaitSentCall(deadline: UInt64) -> Outcome {
        guard let worker = process else { return .failure(.system("the worker vanished"), whileLoading: false) }
        return finish(worker.awaitReply(deadline: deadline))
    }

    /// On ``thread``: the whole call.
    private func run(deadline: UInt64, configuration: WorkerPoolConfiguration) -> Outcome {
        if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
        // What queued calls left: entries taken back, whose answers are still on the pipe.
        queue.withLock { $0.entries.removeAll() }
        if let worker = process, !worker.discardRepliesOut(deadline: Posix.monotonicNanoseconds() + 5_000_000_000) {
            takeProcess()?.stop()
        }
        let file = try? Posix.status(ofPath: configuration.pluginPath)
        if process != nil, file != loadedFile {
            // The file was replaced or rewritten: the worker runs the old code (or a torn mapping of it).
            takeProcess()?.stop()
        }
        process?.pipelined = pipelined
        if let idle = process, case .failure(.closed) = idle.send(sendBuffer) {
            // The worker died while idle (killed from outside, out of memory): the request never reached
            // it, so a fresh worker can take it without running anything twice.
            takeProcess()?.stop()
        } else if let worker = process {
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
        process = worker
        loadedFile = file
        inFlight.withLock { $0 = worker }
        if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
        worker.pipelined = pipelined
        if case .failure(let failure) = worker.send(sendBuffer), case .system = failure {
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

    /// Removes the worker from the slot (to stop it after reporting).
    @discardableResult
    private func takeProcess() -> WorkerProcess? {
        defer {
            process = nil
            loadedFile = nil
        }
        return process
    }
}
