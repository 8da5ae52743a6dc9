import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One place in a plugin's worker pool: a thread the host owns and, while it lives, the worker process that
/// thread talks to. A slot serves one call at a time; the pool hands slots out.
final class WorkerSlot: @unchecked Sendable {
    /// How one call through this slot ended.
    enum Outcome: Sendable {
        /// The worker answered.
        case reply(WorkerCallReply)
        /// The worker failed; `whileLoading` when it never became ready.
        case failure(WorkerProcess.Failure, whileLoading: Bool)
        /// ``cancel()`` stopped the call.
        case cancelled
    }

    /// The thread all of this slot's blocking work runs on.
    let thread = BlockingThread()
    /// The live worker; only touched on ``thread``.
    private var process: WorkerProcess?
    /// The plugin file as it was when ``process`` loaded it; a changed file retires the worker.
    private var loadedFile: Posix.FileStatus?
    /// The worker of the call in flight, for ``cancel()`` from another thread.
    private let inFlight = Mutex<WorkerProcess?>(nil)
    private let cancelled = Atomic<Bool>(false)

    /// Prepares for a new call: clears the cancellation flag. Call before ``cancel()`` can race with it.
    func beginCall() { cancelled.store(false, ordering: .sequentiallyConsistent) }

    /// Runs `request` on this slot's thread, starting a worker first if there is none. `report` gets the
    /// outcome as soon as it is known; cleanup (stopping a timed-out or misbehaving worker) happens after it,
    /// so a timeout is reported on time even when the worker is slow to die.
    func perform(
        _ request: WorkerCallRequest, deadline: UInt64, configuration: WorkerPoolConfiguration,
        report: @escaping @Sendable (Outcome) -> Void
    ) {
        thread.submit { [self] in
            let outcome = run(request, deadline: deadline, configuration: configuration)
            report(outcome)
            switch outcome {
            case .reply: break
            case .cancelled, .failure: discardProcess()
            }
        }
    }

    /// Cancels the call in flight: kills its worker (SIGKILL). Any thread.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        inFlight.withLock { $0?.kill(SIGKILL) }
    }

    /// Stops the worker, if any, and ends the thread after queued work. Returns once done.
    func shutdown() async {
        await thread.run { [self] in discardProcess() }
        thread.finish()
    }

    private func run(_ request: WorkerCallRequest, deadline: UInt64, configuration: WorkerPoolConfiguration) -> Outcome {
        if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
        let worker: WorkerProcess
        let file = try? Posix.status(ofPath: configuration.pluginPath)
        if process != nil, file != loadedFile {
            // The file was replaced or rewritten: the worker runs the old code (or a torn mapping of it).
            discardProcess()
        }
        if let process {
            worker = process
        } else {
            let startupDeadline = FrameChannel.monotonicNanoseconds() + UInt64(configuration.startupTimeout * 1e9)
            let launchTimeout = Double(min(startupDeadline, deadline) &- FrameChannel.monotonicNanoseconds()) / 1e9
            guard launchTimeout > 0 else { return .failure(.timedOut, whileLoading: true) }
            do {
                worker = try WorkerProcess.launch(
                    executable: configuration.workerExecutable, pluginPath: configuration.pluginPath,
                    limits: configuration.limits, startupTimeout: launchTimeout)
            } catch {
                return cancelled.load(ordering: .sequentiallyConsistent) ? .cancelled : .failure(error, whileLoading: true)
            }
            process = worker
            loadedFile = file
        }
        inFlight.withLock { $0 = worker }
        defer { inFlight.withLock { $0 = nil } }
        if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
        switch worker.perform(request, deadline: deadline) {
        case .success(let reply):
            return .reply(reply)
        case .failure(let failure):
            return cancelled.load(ordering: .sequentiallyConsistent) ? .cancelled : .failure(failure, whileLoading: false)
        }
    }

    /// Stops and forgets the worker (on ``thread``).
    private func discardProcess() {
        process?.stop()
        process = nil
    }
}
