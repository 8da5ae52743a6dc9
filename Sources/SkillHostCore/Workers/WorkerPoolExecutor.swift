import SkillJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs one plugin's skills in worker processes (`skillhost __worker FILE`): the `process` isolation mode.
///
/// - A worker serves many calls; up to `maxWorkers` run at once, each serving one call at a time, so the
///   plugin never sees two concurrent `invoke`s in one process (whatever its `thread_safe`).
/// - A worker that dies fails the call in flight with "plugin X crashed: signal 11 (SIGSEGV, Segmentation fault) in
///   skill Y"; the next call starts a fresh worker after a back-off. After `maximumConsecutiveCrashes` in a
///   row the plugin is marked broken (in the ``PluginHealthStore`` when one is configured) and refused.
/// - Timeouts are hard: past the call's deadline the worker gets SIGTERM, then SIGKILL, and the call fails
///   with kind `timeout` as soon as the deadline passes.
/// - Cancelling the calling task kills the call's worker (SIGKILL) and fails the call with `cancelled`.
/// - The call's session context travels as a snapshot; the values the skill set come back and are merged.
///
/// Creating one ignores SIGPIPE for the process (a dead worker must surface as EPIPE, not kill the host).
public final class WorkerPoolExecutor: PluginExecutor {
    /// The pool's settings.
    public let configuration: WorkerPoolConfiguration
    let pool: WorkerPool
    /// The plugin's configuration as last serialized for a request, with its bytes: every call of a plugin
    /// carries the same configuration, serialized once instead of per call.
    private let configurationJSON = Mutex<(value: JSONValue, bytes: [UInt8])?>(nil)

    /// A pool for one plugin; no worker starts before the first call.
    public init(_ configuration: WorkerPoolConfiguration) {
        signal(SIGPIPE, SIG_IGN)
        self.configuration = configuration
        let record = configuration.healthStore?.record(pluginID: configuration.pluginID, path: configuration.pluginPath)
        pool = WorkerPool(capacity: configuration.maxWorkers, consecutiveCrashes: record?.consecutiveCrashes ?? 0)
        if let record, record.broken {
            pool.markBroken(Self.brokenMessage(configuration, crashes: record.consecutiveCrashes, last: record.lastCrash))
        }
    }

    /// Why the plugin is refused after repeated crashes; nil while it may run.
    public var brokenReason: String? { pool.brokenReason }

    // Inlined into the protocol's witness, which callers go through: one `async` frame fewer per call.
    @inline(__always)
    public nonisolated(nonsending) func execute(_ call: SkillCall) async throws(HostError) -> JSONValue {
        if let broken = pool.brokenReason {
            throw HostError(.pluginCrashed, broken, skillID: call.skillID, pluginID: configuration.pluginID)
        }
        // The call's clock (CallDeadline) started when the host dispatched it, so the wait for a free worker
        // counts. A pipelined caller's calls may be queued in a worker (WorkerSlot+Queue.swift): they wait
        // for their place without a deadline, as they would have waited in the caller's own line (the MCP
        // server's limiter bounds how many wait), and their clock restarts when they get it.
        let poller = CallReplyPoller.current
        var queueDepth: Int? = poller != nil && configuration.queueDepth > 1 ? configuration.queueDepth : nil
        var attempts = 0
        var deadline = call.deadline
        while true {
            let acquired: WorkerPool.Place?
            switch pool.tryAcquire(queueDepth: queueDepth) {
            case .done(let place): acquired = place
            case .wait(let id): acquired = await pool.wait(id, deadline: poller != nil ? .max : deadline.nanoseconds, queueDepth: queueDepth)
            }
            guard let place = acquired else {
                if Task.isCancelled || poller != nil || !deadline.hasPassed {
                    throw cancelledError(call)  // cancelled, or the pool shut down
                }
                throw waitedTooLong(call, deadline: deadline)
            }
            if poller != nil { deadline = deadline.restarted() }
            let outcome: WorkerSlot.Outcome
            do {
                defer { pool.release(place) }
                outcome = try await attempt(call, in: place, poller: poller, deadline: deadline)
            }
            if case .notStarted(let exclusive) = outcome {
                // It never ran: run it again (on a slot of its own when it cannot be queued, or after two
                // tries, so that a call is never passed around for ever).
                attempts += 1
                if exclusive || attempts >= 2 { queueDepth = nil }
                continue
            }
            return try result(of: outcome, call: call, slot: place.slot, deadline: deadline)
        }
    }

    /// One try of a call in `place`: queued in its worker when the place is shared, else the slot's own call.
    @inline(__always)
    nonisolated(nonsending) private func attempt(
        _ call: SkillCall, in place: WorkerPool.Place, poller: CallReplyPoller?, deadline: CallDeadline
    ) async throws(HostError) -> WorkerSlot.Outcome {
        // Looked at here first: a call after no crash pays no `async` frame for the back-off.
        if pool.crashState.count > 0 { try await waitOutBackoff(call) }
        guard !deadline.hasPassed else { throw waitedTooLong(call, deadline: deadline) }
        let request = WorkerCallRequest(
            call, deadlineUnixMilliseconds: deadline.unixMilliseconds, configurationJSON: configurationBytes(call.configuration))
        if place.shared, let poller {
            return await place.slot.queuedCall(request, timeout: deadline.seconds, poller: poller, configuration: configuration)
        }
        return await place.slot.call(request, deadline: deadline.nanoseconds, configuration: configuration)
    }

    /// `configuration`'s JSON bytes, serialized again only when it is not the one seen last.
    private func configurationBytes(_ configuration: JSONValue) -> [UInt8] {
        if let known = configurationJSON.withLock({ $0 }), known.value == configuration { return known.bytes }
        let bytes = configuration.serializedBytes()
        configurationJSON.withLock { $0 = (configuration, bytes) }
        return bytes
    }

    /// What a call's outcome means for its caller: the result, or the error that says what happened.
    private func result(
        of outcome: WorkerSlot.Outcome, call: SkillCall, slot: WorkerSlot, deadline: CallDeadline
    ) throws(HostError) -> JSONValue {
        let pluginID = configuration.pluginID
        if let pid = slot.workerPID { (call.attribution ?? WorkerAttribution.current)?.record(pid) }
        switch outcome {
        case .reply(let reply):
            let crashes = pool.recordSuccess()
            if crashes > 0 { try? configuration.healthStore?.clear(pluginID: pluginID) }
            do {
                return try WorkerReplyMapping.result(of: reply, call: call)
            } catch {
                throw SandboxDenial.explain(error, sandbox: configuration.sandbox, call: call)
            }
        case .cancelled, .notStarted:
            throw cancelledError(call)
        case .failure(.timedOut, true) where !deadline.hasPassed:
            throw crashed(.timedOut, whileLoading: true, call: call)
        case .failure(.timedOut, _):
            throw deadline.timeout(call.skillID, pluginID: pluginID, detail: "its worker was stopped")
        case .failure(let failure, let whileLoading):
            throw crashed(failure, whileLoading: whileLoading, call: call)
        }
    }

    public func shutdown() async {
        for slot in pool.shutDown() { await slot.shutdown() }
    }

    /// Turns a dead or misbehaving worker into the call's error and counts the crash.
    private func crashed(_ failure: WorkerProcess.Failure, whileLoading: Bool, call: SkillCall) -> HostError {
        let pluginID = configuration.pluginID
        var kind = HostError.Kind.pluginCrashed
        var message: String
        switch failure {
        case .died(let exit):
            let cause = exit.description + Self.hint(for: exit, limits: configuration.limits)
            message =
                whileLoading
                ? "plugin \(pluginID) crashed while loading \(configuration.pluginPath): \(cause)"
                : "plugin \(pluginID) crashed: \(cause) in skill \(call.skillID)"
        case .loadFailed(let reason):
            kind = .invalidPlugin
            message = "plugin \(pluginID) could not be loaded by its worker: \(reason)"
        case .protocolViolation(let reason):
            message = "plugin \(pluginID) broke the worker protocol in skill \(call.skillID): \(reason)"
        case .system(let reason):
            return HostError(.io, "plugin \(pluginID): \(reason)", skillID: call.skillID, pluginID: pluginID)
        case .timedOut:
            message =
                "plugin \(pluginID) did not finish loading \(configuration.pluginPath) within "
                + "\(SecondsText.format(configuration.startupTimeout)) s: its constructors or entry point hang"
        }
        let limit = configuration.crashPolicy.maximumConsecutiveCrashes
        let count = pool.recordCrash(
            at: Double(Posix.monotonicNanoseconds()) / 1e9, limit: limit,
            reason: Self.brokenMessage(configuration, crashes: limit, last: message))
        _ = try? configuration.healthStore?.recordCrash(
            pluginID: pluginID, path: configuration.pluginPath, message: message, limit: limit)
        if count >= limit { message += "; it crashed \(count) times in a row and is now marked broken" }
        return HostError(kind, message, skillID: call.skillID, pluginID: pluginID)
    }

    /// Sleeps until the back-off after the last crash has passed.
    nonisolated(nonsending) private func waitOutBackoff(_ call: SkillCall) async throws(HostError) {
        let (count, last) = pool.crashState
        guard count > 0 else { return }
        let wait = last + configuration.crashPolicy.backoff(afterCrashes: count)
            - Double(Posix.monotonicNanoseconds()) / 1e9
        guard wait > 0 else { return }
        do {
            try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        } catch {
            throw cancelledError(call)
        }
    }

    private func waitedTooLong(_ call: SkillCall, deadline: CallDeadline) -> HostError {
        deadline.timeout(
            call.skillID, pluginID: configuration.pluginID,
            detail: "it was waiting for a free worker of plugin \(configuration.pluginID) (max_workers "
                + "\(configuration.maxWorkers)): raise max_workers for it in the registry")
    }

    private func cancelledError(_ call: SkillCall) -> HostError {
        HostError(
            .cancelled, "call of skill \(call.skillID) was cancelled", skillID: call.skillID,
            pluginID: configuration.pluginID)
    }

    private static func brokenMessage(_ configuration: WorkerPoolConfiguration, crashes: Int, last: String) -> String {
        "plugin \(configuration.pluginID) is marked broken: it crashed \(crashes) times in a row (last: \(last)); "
            + "replace \(configuration.pluginPath) with a fixed build (a changed file is tried again)"
    }

    private static func hint(for exit: WorkerExit, limits: ResourceLimits) -> String {
        switch exit {
        case .signaled(SIGXCPU):
            return " (it used up its CPU time limit of \(limits.cpuSeconds ?? 0) s; raise limits.cpu_seconds)"
        case .exited:
            return " (plugins must not call exit)"
        default:
            return ""
        }
    }

}
