import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One running `skillhost __worker FILE` process, seen from the host: its pid, the pipes frames travel on,
/// and how to stop it.
///
/// ``perform(_:deadline:)`` blocks and must run on a thread the host owns (never the Swift concurrency
/// pool); one call at a time. ``kill(_:)`` may be called from any thread, e.g. to cancel the call in flight.
package final class WorkerProcess: @unchecked Sendable {
    /// Why a worker could not start or could not finish a call.
    package enum Failure: Error, Equatable {
        /// The process ended (crash, `exit`, killed by a resource limit).
        case died(WorkerExit)
        /// The deadline passed; the caller stops the process.
        case timedOut
        /// The worker reported that the plugin could not be loaded (the message says why).
        case loadFailed(String)
        /// The worker broke the framing; the caller stops the process.
        case protocolViolation(String)
        /// Starting the process or talking to it failed.
        case system(String)
    }

    /// The process id.
    let pid: pid_t
    private let channel: FrameChannel
    private var sendBuffer: [UInt8] = []
    /// The shared-memory fast lane for calls, when there is one.
    private var slot: SharedCallSlot?
    /// A reply ``replyArrives(within:)`` already took from ``slot``.
    private var slotReply: Result<WorkerCallReply, FrameChannel.Failure>?
    /// Whether the host side of ``slot`` gave up spinning and waits on the pipe.
    private var waitsOnPipe = false
    /// When the last reply arrived (CLOCK_MONOTONIC nanoseconds).
    private var lastReply: UInt64 = 0
    /// Whether requests come from a loop that does other work between them (a ``CallReplyPoller``): the
    /// worker then sleeps on its pipe right after each reply instead of spinning for the next request
    /// (``SharedCallSlot/announcePipelined(_:)``). Set by the caller before ``send(_:)``.
    var pipelined = false
    /// A worker idle longer than this is checked for life before a request goes into ``slot``.
    private static let idleCheckNanoseconds: UInt64 = 1_000_000
    /// Requests sent to this process so far, in any mode: the next request's number (`SharedCallSlot+Queue`).
    private(set) var requestsSent: UInt64 = 0
    /// Replies received so far; `requestsSent - repliesReceived` are still out.
    private(set) var repliesReceived: UInt64 = 0
    /// Queued request frames not written yet (``enqueue(_:)``, ``flush()``).
    private var outgoing: [UInt8] = []
    /// Set once the process has been reaped, so its pid is never signalled after reuse.
    private let exit = Mutex<WorkerExit?>(nil)

    private init(pid: pid_t, channel: FrameChannel) {
        self.pid = pid
        self.channel = channel
        requestPipeBytes = Self.pipeCapacity(channel.output)
    }

    deinit {
        close(channel.input)
        close(channel.output)
    }

    /// Starts a worker for `pluginPath` and waits until it has loaded the plugin.
    /// - Parameters:
    ///   - executable: the `skillhost` binary.
    ///   - pluginPath: absolute path of the plugin file.
    ///   - limits: resource limits the worker applies before loading the plugin.
    ///   - startupTimeout: seconds to wait for the plugin to load.
    ///   - spare: a worker of `executable` already started with `--await-load` (``SpareWorker``): it is sent
    ///     the plugin to load instead of a new process being spawned; a spare that died meanwhile is reaped
    ///     and a new process spawned.
    ///   - environment: the worker's whole environment (``WorkerEnvironment``): a spawned worker starts with
    ///     it, an adopted spare gets it with its load order.
    ///   - output: where the worker's stderr goes, as lines of `pluginID` (``PluginOutputSink``).
    ///   - started: told about the process as soon as it exists (so it can be killed while it loads).
    package static func launch(
        executable: String, pluginPath: String, limits: ResourceLimits, startupTimeout: Double,
        sandbox: SandboxPolicy? = nil, environment: [String] = WorkerEnvironment.base(),
        output: (pluginID: String, sink: PluginOutputSink) = ("plugin", .discard), spare: SpareWorker? = nil,
        started: (WorkerProcess) -> Void = { _ in }
    ) throws(Failure) -> WorkerProcess {
        let workerArguments = [pluginPath] + limits.workerArguments + (sandbox?.workerArguments ?? [])
        let worker: WorkerProcess
        // A spare of another executable, or whose namespaces (entered at its start) this sandbox does not want,
        // cannot serve this launch: it ends unused.
        let fits = spare.map { $0.executable == executable && $0.namespaces == (sandbox?.namespaces ?? false) } ?? false
        if let spare, !fits { spare.discard() }
        if let spare, fits,
            let adopted = adopt(spare, loading: WorkerLoadOrder(workerArguments: workerArguments, environment: environment))
        {
            spare.output?.assign(label: output.pluginID, sink: output.sink)
            worker = adopted
        } else {
            let child: Posix.PipedChild
            // Calls whose frames fit travel through shared memory while both sides are awake (SharedCallSlot).
            let slot: SharedCallSlot?
            do {
                (child, slot) = try WorkerDescriptors.spawn(
                    executable, arguments: ["__worker"] + workerArguments, environment: environment,
                    namespaces: sandbox?.namespaces ?? false)
            } catch {
                throw .system("cannot start the worker \(executable): \(error.message)")
            }
            PluginOutputCollector.shared.read(child.errors, label: output.pluginID, sink: output.sink)
            worker = WorkerProcess(pid: child.pid, channel: FrameChannel(input: child.output, output: child.input))
            worker.slot = slot
        }
        started(worker)
        let deadline = Posix.monotonicNanoseconds() + UInt64(startupTimeout * 1e9)
        let first: (kind: WorkerFrame.Kind, message: String)
        do {
            first = try worker.channel.receive(deadline: deadline) { kind, payload throws(FrameError) in
                var decoder = FrameDecoder(payload)
                return (kind, kind == .loadFailed ? try decoder.string() : "")
            }
        } catch {
            let failure = worker.settle(error, loading: true)
            // A worker stuck in the plugin's constructors or entry point must not outlive the attempt.
            if failure == .timedOut { worker.stop() }
            throw failure
        }
        switch first.kind {
        case .ready:
            return worker
        case .loadFailed:
            if worker.waitForExit(milliseconds: 2000) == nil { worker.stop() }
            throw .loadFailed(first.message)
        default:
            worker.stop()
            throw .protocolViolation("the worker sent a \(first.kind) frame before it was ready")
        }
    }

    /// Takes over `spare` and sends it the load order; nil (the spare reaped) when it is gone.
    private static func adopt(_ spare: SpareWorker, loading order: WorkerLoadOrder) -> WorkerProcess? {
        // A spare that already ended (killed while it waited) is replaced; its death is not the plugin's.
        if Posix.reap(spare.pid, blocking: false) != nil {
            spare.discard(reaped: true)
            return nil
        }
        spare.markAdopted()
        let worker = WorkerProcess(pid: spare.pid, channel: FrameChannel(input: spare.child.output, output: spare.child.input))
        worker.slot = spare.slot
        do {
            try worker.channel.send(order.encodedFrame())
            return worker
        } catch {
            worker.kill(SIGKILL)
            _ = worker.waitForExit(milliseconds: nil)
            return nil
        }
    }

    /// Sends one call and waits for its reply.
    /// - Parameter deadline: CLOCK_MONOTONIC nanoseconds; past it the call fails with ``Failure/timedOut`` and
    ///   the caller must ``stop()`` the worker.
    package func perform(_ request: WorkerCallRequest, deadline: UInt64) -> Result<WorkerCallReply, Failure> {
        sendBuffer = request.encodedFrame(reusing: sendBuffer)
        if case .failure(let failure) = send(sendBuffer) { return .failure(settle(failure, loading: false)) }
        return awaitReply(deadline: deadline)
    }

    /// Writes an encoded call frame. A failure is returned unsettled: a later ``awaitReply(deadline:)`` meets
    /// the same dead pipe and reports it.
    func send(_ frame: [UInt8]) -> Result<Void, FrameChannel.Failure> {
        requestsSent &+= 1
        slotReply = nil
        waitsOnPipe = false
        if let slot {
            // A request posted into the slot reaches a dead worker without an EPIPE. A worker killed while
            // idle must be noticed here, as the pipe would (the pool then retries on a fresh worker): one
            // poll after an idle spell; back-to-back calls skip it.
            if Posix.monotonicNanoseconds() &- lastReply > Self.idleCheckNanoseconds, peerClosed() {
                return .failure(.closed)
            }
            slot.announcePipelined(pipelined)
            if slot.postRequest(frame) { return .success(()) }
        }
        do {
            try channel.send(frame)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Whether a reply (or end of file) is waiting, checking without blocking for up to `nanoseconds`.
    func replyArrives(within nanoseconds: UInt64) -> Bool {
        if slotReply != nil || takeSlotReply() { return true }
        let end = Posix.monotonicNanoseconds() + nanoseconds
        var descriptor = pollfd(fd: channel.input, events: Int16(POLLIN), revents: 0)
        repeat {
            if poll(&descriptor, 1, 0) > 0 { return true }
        } while Posix.monotonicNanoseconds() < end
        return false
    }

    /// Reads the reply to the call sent last, without reaping or stopping anything on failure (so it may
    /// run on a thread that must not block long); ``awaitReply(deadline:)`` settles failures.
    func receiveReply(deadline: UInt64) -> Result<WorkerCallReply, FrameChannel.Failure> {
        if let reply = slotReply ?? (takeSlotReply() ? slotReply : nil) {
            slotReply = nil
            lastReply = Posix.monotonicNanoseconds()
            repliesReceived &+= 1
            return reply
        }
        defer {
            if waitsOnPipe {
                waitsOnPipe = false
                slot?.hostWoke()
            }
        }
        do {
            let reply = try channel.receive(deadline: deadline) { kind, payload throws(FrameError) in
                try Self.reply(kind, payload)
            }
            lastReply = Posix.monotonicNanoseconds()
            repliesReceived &+= 1
            return .success(reply)
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Queued requests (several out at once, on the pipes; SharedCallSlot+Queue.swift)

    /// Whether this worker can take queued requests: it has a shared slot for their entry words, and its
    /// request pipe holds at least ``queuedBytesBound`` (a pipe of a user over the kernel's
    /// `pipe-user-pages-soft` gets one page; a batch's `write` could then wait on a worker that waits on
    /// the host to read its replies).
    var canQueue: Bool { Self.canQueue(hasSlot: slot != nil, requestPipeBytes: requestPipeBytes) }

    /// The rule behind ``canQueue``.
    static func canQueue(hasSlot: Bool, requestPipeBytes: Int) -> Bool {
        hasSlot && requestPipeBytes >= queuedBytesBound
    }

    /// The capacity of the pipe behind `descriptor` (`F_GETPIPE_SZ`), or -1.
    static func pipeCapacity(_ descriptor: Int32) -> Int { Int(fcntl(descriptor, getPipeSize)) }
    /// What the host may have written and the worker not read yet with queued requests
    /// (``WorkerSlot/queuedEntryLimit`` × ``WorkerSlot/queuedFrameLimit``).
    static let queuedBytesBound = 64 << 10
    /// The capacity of the pipe requests are written to (read when the process is adopted).
    private let requestPipeBytes: Int
    /// `F_GETPIPE_SZ` (Linux; not in the Glibc module).
    private static let getPipeSize: Int32 = 1032

    /// Numbers the request in `frame`, marks its entry word queued and keeps it for ``flush()``; returns its
    /// number. The caller keeps at most ``SharedCallSlot/entryCount`` requests out.
    func enqueue(_ frame: [UInt8]) -> UInt64 {
        let sequence = requestsSent
        requestsSent &+= 1
        slot?.announce(.queued)
        slot?.markQueued(sequence)
        outgoing += frame
        return sequence
    }

    /// Writes the queued requests not written yet, in one `write` (one wake-up of a sleeping worker for all).
    func flush() -> Result<Void, FrameChannel.Failure> {
        guard !outgoing.isEmpty else { return .success(()) }
        defer { outgoing.removeAll(keepingCapacity: true) }
        do {
            try channel.send(outgoing)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Takes back queued request `sequence` if the worker has not started it (see ``SharedCallSlot``).
    func withdraw(_ sequence: UInt64) -> Bool { slot?.withdraw(sequence) ?? false }

    /// Whether the worker has begun queued request `sequence`.
    func hasStarted(_ sequence: UInt64) -> Bool { slot?.hasStarted(sequence) ?? false }

    /// The next reply on the pipe if one is there now (or the failure that ends the channel); nil when none
    /// is there yet. Never blocks.
    func readyReply() -> Result<WorkerCallReply, FrameChannel.Failure>? {
        guard channel.frameIsReady() else { return nil }
        return pipeReply(deadline: nil)
    }

    /// Waits for the next reply on the pipe until `deadline`, settling a failure (reaps a dead worker, stops
    /// a misbehaving one); on the slot's thread.
    func awaitQueuedReply(deadline: UInt64) -> Result<WorkerCallReply, Failure> {
        pipeReply(deadline: deadline).mapError { settle($0, loading: false) }
    }

    /// The next reply frame on the pipe, counted.
    private func pipeReply(deadline: UInt64?) -> Result<WorkerCallReply, FrameChannel.Failure> {
        do {
            let reply = try channel.receive(deadline: deadline) { kind, payload throws(FrameError) in
                try Self.reply(kind, payload)
            }
            repliesReceived &+= 1
            lastReply = Posix.monotonicNanoseconds()
            return .success(reply)
        } catch {
            return .failure(error)
        }
    }

    /// Reads and drops the replies still out (answers to withdrawn requests) before a request that is not
    /// queued; false when they did not all come by `deadline` or the worker failed (retire it then).
    func discardRepliesOut(deadline: UInt64) -> Bool {
        while requestsSent != repliesReceived {
            guard case .success = awaitQueuedReply(deadline: deadline) else { return false }
        }
        return true
    }

    /// Looks once, without spinning, for the reply in ``slot``; true when it is there (kept for
    /// ``receiveReply(deadline:)``). A reply sent on the pipe is not seen here.
    func pollSlotReply() -> Bool {
        if slotReply != nil { return true }
        guard let slot, !waitsOnPipe, let taken = slot.tryTakeReply(WorkerCallReply.decode(slotFrame:)) else { return false }
        slotReply = taken
        return true
    }

    /// Spins on ``slot`` for the reply (once per call); true when it came that way (kept in ``slotReply``).
    /// Otherwise the worker sends it on the pipe.
    private func takeSlotReply() -> Bool {
        guard let slot, !waitsOnPipe else { return false }
        let taken = slot.takeReply(WorkerCallReply.decode(slotFrame:))
        guard let taken else {
            waitsOnPipe = true
            return false
        }
        slotReply = taken
        return true
    }

    /// Whether the worker's end of the reply pipe is closed (it exited), checked without waiting.
    private func peerClosed() -> Bool {
        var descriptor = pollfd(fd: channel.input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP | POLLERR) != 0
    }

    private static func reply(_ kind: WorkerFrame.Kind, _ payload: UnsafeRawBufferPointer) throws(FrameError) -> WorkerCallReply {
        guard kind == .reply else { throw FrameError("the worker sent a \(kind) frame instead of a reply") }
        return try WorkerCallReply(payload: payload)
    }

    /// Waits for the reply to the call sent last; on failure reaps a dead worker or stops a misbehaving one.
    func awaitReply(deadline: UInt64) -> Result<WorkerCallReply, Failure> {
        switch receiveReply(deadline: deadline) {
        case .success(let reply): return .success(reply)
        case .failure(let failure): return .failure(settle(failure, loading: false))
        }
    }

    /// Sends `signal` to the process unless it was already reaped. Any thread.
    func kill(_ signal: Int32) {
        exit.withLock { state in
            if state == nil { Posix.sendSignal(signal, to: pid) }
        }
    }

    /// Stops the process: SIGTERM, then SIGKILL if it is still there after 100 ms; reaps it. Blocks for up to
    /// about 100 ms plus the time the kernel takes to end it.
    package func stop() {
        kill(SIGTERM)
        if waitForExit(milliseconds: 100) != nil { return }
        kill(SIGKILL)
        _ = waitForExit(milliseconds: nil)
    }

    /// Reaps the process, waiting up to `milliseconds` (nil = forever). Returns how it ended, or nil if it
    /// still runs.
    @discardableResult
    func waitForExit(milliseconds: Int?) -> WorkerExit? {
        if let known = exit.withLock({ $0 }) { return known }
        guard let ended = Posix.reap(pid, waitingUpTo: milliseconds) else { return nil }
        exit.withLock { $0 = ended }
        return ended
    }

    /// Turns a channel failure into the reason the caller reports; reaps a worker that died.
    private func settle(_ failure: FrameChannel.Failure, loading: Bool) -> Failure {
        switch failure {
        case .timedOut:
            return .timedOut
        case .closed:
            // The pipe closed: the process is exiting. Give it a moment, then make sure.
            if let ended = waitForExit(milliseconds: 2000) { return .died(ended) }
            kill(SIGKILL)
            return .died(waitForExit(milliseconds: nil) ?? .signaled(SIGKILL))
        case .corrupt(let error):
            stop()
            return .protocolViolation(error.description)
        case .system(let call, let code):
            stop()
            return .system("\(call) on the worker's pipe failed: \(Posix.describe(errno: code))")
        }
    }
}
