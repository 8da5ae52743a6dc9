import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Queued calls: a pipelined caller (one with a ``CallReplyPoller``) may have up to
/// ``WorkerPoolConfiguration/queueDepth`` calls out to one worker at once, so a burst costs one wake-up of
/// the worker per batch instead of one per call.
///
/// How it travels. Each queued call's request frame is appended to the worker's outgoing bytes
/// (``WorkerProcess/enqueue(_:)``), with its entry word marked `queued` in the shared slot
/// (`SharedCallSlot+Queue.swift`); the poller's next round writes them all in one `write`. The worker
/// serves them in order and answers each on its pipe at once; the poller reads the answers that are there
/// (one non-blocking read for many) and resumes their calls, oldest first: replies match calls by order.
///
/// What stays as without queueing:
/// - a call's timeout counts from when it became the oldest call out (the worker started it then), not
///   from when it was queued behind others;
/// - when the oldest call's reply is not there within ``pollNanoseconds`` (a slow skill), the slot stops
///   taking queued calls and takes back every call queued behind it that the worker has not started: they
///   return ``Outcome/notStarted`` and run elsewhere (or here, later), so a slow call holds up no other;
///   the slot's thread then waits for the calls that did start, each until its deadline, as a call without
///   queueing is waited for;
/// - cancelling a call the worker has not started takes it back (it never runs); cancelling one it has
///   started kills the worker, as without queueing;
/// - when the worker dies (crash, timeout, killed), the call it was running fails with the cause, and the
///   calls queued behind it, which never started, return ``Outcome/notStarted``.
extension WorkerSlot {
    /// One queued call, oldest first in ``CallQueue/entries``.
    struct QueuedEntry {
        let sequence: UInt64
        /// Its timeout, in nanoseconds, counted from when it became the oldest call out.
        let timeout: UInt64
        /// Nil once the call was resumed (a withdrawn entry stays until the worker's answer to it arrives).
        var continuation: UnsafeContinuation<Outcome, Never>?
        /// Taken back before the worker started it: its answer (``WorkerCallReply/withdrawn``) is dropped.
        var withdrawn = false
        /// Its request was written to the worker.
        var written = false
        /// Cancelled while the worker ran it: the worker was killed, and the call reports ``Outcome/cancelled``.
        var cancelled = false
    }

    /// The slot's queued calls and who waits for their replies.
    struct CallQueue {
        var entries: [QueuedEntry] = []
        /// The slot's thread owns the replies (a slow call, or a failure): no call is queued meanwhile.
        var draining = false
        /// When the oldest entry became the oldest with its request written (CLOCK_MONOTONIC nanoseconds):
        /// the worker could start it from then on.
        var headSince: UInt64 = 0
        /// The last request frame encoded (its storage is reused for the next).
        var frame: [UInt8] = []
        /// Whether no call is queued and nobody waits for a reply.
        var isIdle: Bool { entries.isEmpty && !draining }
    }

    /// Entries a slot keeps at most, calls and calls taken back whose answers are still to come: with
    /// requests of at most ``queuedFrameLimit`` bytes, what the worker has not read yet fits in its pipe
    /// (64 KiB), so writing a batch never waits. Well within ``SharedCallSlot/entryCount``.
    static let queuedEntryLimit = 16

    /// Runs one call queued in this slot's worker; the caller holds a shared place from the pool and runs
    /// with `poller` set. Returns ``Outcome/notStarted`` when the call did not run (no queue-capable worker
    /// now, its request too large to queue, the plugin file changed, or taken back): the caller runs it
    /// again. Inlined into its caller (one `async` frame fewer per call).
    @inline(__always)
    nonisolated(nonsending) func queuedCall(
        _ request: WorkerCallRequest, timeout: Double, poller: CallReplyPoller, configuration: WorkerPoolConfiguration
    ) async -> Outcome {
        if !owned.withLock({ $0.loadedFileIsCurrent(configuration) }) {
            // A call of its own retires the worker, which runs the old code, and starts a fresh one.
            acceptsQueuedCalls.store(false, ordering: .sequentiallyConsistent)
            return .notStarted(exclusive: true)
        }
        let ticket = QueueTicket()
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Outcome, Never>) in
                let sequence: UInt64?? = owned.withLock { owned in
                    guard !owned.queue.draining, let worker = owned.process, worker.canQueue,
                        owned.queue.entries.count < Self.queuedEntryLimit
                    else { return .some(nil) }
                    owned.queue.frame = request.encodedFrame(reusing: owned.queue.frame)
                    guard owned.queue.frame.count <= Self.queuedFrameLimit else { return nil }
                    let sequence = worker.enqueue(owned.queue.frame)
                    owned.queue.entries.append(QueuedEntry(
                        sequence: sequence, timeout: UInt64(max(timeout, 0) * 1e9), continuation: continuation))
                    return sequence
                }
                guard let found = sequence, let sequence = found else {
                    // Not queued now: on a slot of its own when its request is too large to queue.
                    continuation.resume(returning: .notStarted(exclusive: sequence == nil))
                    return
                }
                if ticket.set(sequence) { cancelQueued(sequence) }
                poller.add { [self] in pollQueue(for: sequence) }
            }
        } onCancel: {
            if let sequence = ticket.cancel() { cancelQueued(sequence) }
        }
    }

    /// The poller's check for queued call `sequence`: writes what is queued, takes the replies that are
    /// there and resumes their calls; true once this call is settled (resumed, or left to the slot's
    /// thread). Only the oldest waiting call's check reads the pipe.
    func pollQueue(for sequence: UInt64) -> Bool {
        // Calls are resumed under the lock: that only queues their tasks on their executors.
        let resume: Resume = { $0.resume(returning: $1) }
        return owned.withLock { owned in
            guard !owned.queue.draining, let index = owned.queue.entries.firstIndex(where: { $0.sequence == sequence }),
                owned.queue.entries[index].continuation != nil
            else { return true }
            guard let worker = owned.process else {
                startDraining(&owned, failure: nil, resume: resume)
                return true
            }
            // Only the first call still waiting reads; the checks of the others just look.
            if owned.queue.entries.firstIndex(where: { $0.continuation != nil }) != index { return false }
            if case .failure(let failure) = worker.flush() {
                startDraining(&owned, failure: failure, resume: resume)
                return true
            }
            Self.markWritten(&owned.queue)
            while let next = worker.readyReply() {
                guard case .success(let reply) = next else {
                    startDraining(&owned, failure: next.failure, resume: resume)
                    return true
                }
                guard let failure = Self.deliver(reply, to: &owned.queue, resume: resume) else { continue }
                startDraining(&owned, failure: failure, resume: resume)
                return true
            }
            if !owned.queue.entries.contains(where: { $0.sequence == sequence && $0.continuation != nil }) { return true }
            if Posix.monotonicNanoseconds() &- owned.queue.headSince > Self.pollNanoseconds {
                startDraining(&owned, failure: nil, resume: resume)
                return true
            }
            return false
        }
    }

    /// Resumes a queued call with its outcome.
    typealias Resume = (UnsafeContinuation<Outcome, Never>, Outcome) -> Void

    /// After a flush: every entry's request is written; an oldest entry written just now starts its clock.
    private static func markWritten(_ queue: inout CallQueue) {
        if let first = queue.entries.first, !first.written { queue.headSince = Posix.monotonicNanoseconds() }
        for index in queue.entries.indices { queue.entries[index].written = true }
    }

    /// Matches `reply` with the oldest entry: resumes its call (a withdrawn one's answer is dropped) and
    /// starts the next entry's clock. Returns the failure when the reply does not fit the entry.
    private static func deliver(
        _ reply: WorkerCallReply, to queue: inout CallQueue, resume: Resume
    ) -> FrameChannel.Failure? {
        guard let head = queue.entries.first else {
            return .corrupt(FrameError("the worker sent a reply no request asked for"))
        }
        guard head.withdrawn == (reply.status == WorkerCallReply.withdrawn) else {
            return .corrupt(FrameError(head.withdrawn
                ? "the worker answered a request it was told not to run" : "the worker refused a request it was given"))
        }
        queue.entries.removeFirst()
        queue.headSince = Posix.monotonicNanoseconds()
        if let continuation = head.continuation { resume(continuation, .reply(reply)) }
        return nil
    }

    /// Hands the replies to the slot's thread (under the queue's lock): no more calls are queued here, and
    /// every call the worker has not started is taken back (``Outcome/notStarted``), so that none waits
    /// behind a slow one or a dead worker.
    private func startDraining(_ owned: inout Owned, failure: FrameChannel.Failure?, resume: Resume) {
        owned.queue.draining = true
        acceptsQueuedCalls.store(false, ordering: .sequentiallyConsistent)
        let worker = owned.process
        for index in owned.queue.entries.indices where owned.queue.entries[index].continuation != nil {
            guard let worker, worker.withdraw(owned.queue.entries[index].sequence) else { continue }
            owned.queue.entries[index].withdrawn = true
            resume(owned.queue.entries[index].continuation!, .notStarted(exclusive: false))
            owned.queue.entries[index].continuation = nil
        }
        let accepted = thread.submit { [self] in drainQueue(failure: failure) }
        if !accepted {
            // The pool shut down: nobody will wait for the rest.
            for index in owned.queue.entries.indices {
                if let continuation = owned.queue.entries[index].continuation { resume(continuation, .cancelled) }
                owned.queue.entries[index].continuation = nil
            }
        }
    }

    /// On ``thread``: waits for the replies still out, each call until its deadline; on a failure the call
    /// the worker was running fails with it and those behind it, which never started, return
    /// ``Outcome/notStarted``. Ends the draining (the slot takes queued calls again when its worker lives).
    /// `failure` is what the poller met, if anything: an end of file is met again here and settled.
    private func drainQueue(failure: FrameChannel.Failure?) {
        guard let worker = owned.withLock({ $0.process }) else {
            finishDraining(after: .system("the worker vanished"))
            return
        }
        switch failure {
        case .corrupt(let error)?:
            worker.stop()
            finishDraining(after: .protocolViolation(error.description))
            return
        case .system(let call, let code)?:
            worker.stop()
            finishDraining(after: .system("\(call) on the worker's pipe failed: \(Posix.describe(errno: code))"))
            return
        case .closed?, .timedOut?, nil:
            break
        }
        while true {
            let next: (deadline: UInt64, live: Bool)? = owned.withLock { owned in
                guard let head = owned.queue.entries.first else { return nil }
                return (owned.queue.headSince &+ head.timeout, !head.withdrawn)
            }
            guard let next else { break }
            // A withdrawn request is answered at once (after the calls before it): bound that wait anyway.
            let deadline = next.live ? next.deadline : Posix.monotonicNanoseconds() + 5_000_000_000
            switch worker.awaitQueuedReply(deadline: deadline) {
            case .success(let reply):
                let mismatch: FrameChannel.Failure? = owned.withLock { owned in
                    Self.deliver(reply, to: &owned.queue) { $0.resume(returning: $1) }
                }
                if let mismatch, case .corrupt(let error) = mismatch {
                    worker.stop()
                    finishDraining(after: .protocolViolation(error.description))
                    return
                }
            case .failure(let settled):
                finishDraining(after: settled)
                return
            }
        }
        let idle: Bool = owned.withLock { owned in
            guard owned.queue.entries.isEmpty else { return false }
            owned.queue.draining = false
            return true
        }
        if idle {
            acceptsQueuedCalls.store(true, ordering: .sequentiallyConsistent)
            becameIdle()
        }
    }

    /// The worker failed while calls were out: the call it was running gets `failure` (or ``Outcome/cancelled``
    /// when it was cancelled), the others ``Outcome/notStarted``; the worker is stopped and removed.
    private func finishDraining(after failure: WorkerProcess.Failure) {
        var resumes: [(UnsafeContinuation<Outcome, Never>, Outcome)] = []
        let worker = owned.withLock { owned in
            let worker = owned.process
            for entry in owned.queue.entries {
                guard let continuation = entry.continuation else { continue }
                let started = worker?.hasStarted(entry.sequence) ?? false
                let outcome: Outcome =
                    entry.cancelled ? .cancelled : started ? .failure(failure, whileLoading: false) : .notStarted(exclusive: false)
                resumes.append((continuation, outcome))
            }
            owned.queue.entries.removeAll()
            owned.process = nil
            owned.queue.draining = false
            return worker
        }
        for (continuation, outcome) in resumes { continuation.resume(returning: outcome) }
        worker?.stop()
        becameIdle()
    }

    /// Cancels queued call `sequence`: takes it back when the worker has not started it, else kills the worker
    /// (the call then reports ``Outcome/cancelled``). Any thread.
    func cancelQueued(_ sequence: UInt64) {
        let resume: UnsafeContinuation<Outcome, Never>? = owned.withLock { owned in
            guard let index = owned.queue.entries.firstIndex(where: { $0.sequence == sequence }),
                let continuation = owned.queue.entries[index].continuation, let worker = owned.process
            else { return nil }
            if worker.withdraw(sequence) {
                owned.queue.entries[index].withdrawn = true
                owned.queue.entries[index].continuation = nil
                return continuation
            }
            owned.queue.entries[index].cancelled = true
            worker.kill(SIGKILL)
            return nil
        }
        resume?.resume(returning: .cancelled)
    }
}

/// Hands a queued call's number from the enqueue to a cancellation handler that may run first or at the same
/// time on another thread.
final class QueueTicket: Sendable {
    private static let unset = UInt64.max
    private static let cancelledEarly = UInt64.max - 1
    private let value = Atomic<UInt64>(QueueTicket.unset)

    /// Records the number; true when the call was cancelled before (cancel it now).
    func set(_ sequence: UInt64) -> Bool {
        !value.compareExchange(expected: Self.unset, desired: sequence, ordering: .sequentiallyConsistent).exchanged
    }

    /// The number to cancel, or nil when it is not known yet (``set(_:)`` then reports the cancellation).
    func cancel() -> UInt64? {
        let (exchanged, found) = value.compareExchange(
            expected: Self.unset, desired: Self.cancelledEarly, ordering: .sequentiallyConsistent)
        return exchanged ? nil : found
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
