import CSkillABI
import Dispatch
import SkillJSON
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where one blocking `invoke` meets the `async` skill it runs.
///
/// The host calls `invoke` on a thread it owns and waits there (``wait(for:deadline:)``); the skill runs in
/// a `Task` that starts on that thread (``runSkill()``) and, once it suspends, continues on the concurrency
/// pool. The ABI's context callbacks are `[call-thread]`, so the skill's
/// requests (`log`, `context_get`, `context_set`) are queued here and run by the waiting thread. The
/// waiting thread also polls the host's cancellation flag and the deadline, and cancels the task.
final class CallRendezvous: ContextChannel {
    /// A request that needs the call thread. Runs with the C context, or with nil once the call has ended.
    typealias Request = @Sendable (UnsafePointer<skill_call_context>?) -> Void

    /// Unchecked: the C context pointer is only dereferenced under the lock or on the call thread, while
    /// the host keeps it valid (until `wait` returns and sets it to nil).
    private struct State: @unchecked Sendable {
        var context: UnsafePointer<skill_call_context>?
        var requests: [Request] = []
        var outcome: CallOutcome?
        /// Made by the call thread the first time it has to wait: a skill that finishes without
        /// suspending never needs one.
        var wakeUp: DispatchSemaphore?
    }

    /// How often the waiting thread polls `is_cancelled` when nothing else wakes it.
    static let pollInterval: DispatchTimeInterval = .milliseconds(5)
    /// How long a cancelled task gets to finish before the call returns without it.
    static let cancellationGrace: DispatchTimeInterval = .milliseconds(250)

    private let state: Mutex<State>
    /// Whether the C context has the 1.0 callbacks (its struct_size covers them).
    private let hasCallbacks: Bool
    /// The skill the call runs and its arguments, kept here so the task running it captures one reference.
    private let skill: any Skill
    private let arguments: JSONValue
    /// The C context, for ``deadline`` (read on the call thread) and for ``runSkill()``, which reads it only
    /// while the channel is open (the call thread is then still inside `invoke`, so the host keeps it valid).
    nonisolated(unsafe) private let callContext: UnsafePointer<skill_call_context>
    /// The thread inside `invoke`.
    private let callThread = pthread_self()
    /// The skill's context when the call thread made it (the usual case: the task starts there), with its
    /// strings still in the C context; ``keepContextStrings()`` copies them before the call returns if the
    /// context outlives it. Read and written on the call thread only.
    nonisolated(unsafe) private var lazyContext: SkillContext?

    init(context: UnsafePointer<skill_call_context>, skill: any Skill, arguments: JSONValue) {
        hasCallbacks = context.pointee.struct_size >= SKILL_CALL_CONTEXT_SIZE_1_0
        state = Mutex(State(context: context))
        callContext = context
        self.skill = skill
        self.arguments = arguments
    }

    /// The call's deadline in milliseconds since the Unix epoch, or nil.
    var deadline: Int64? { callContext.pointee.deadline_unix_ms > 0 ? callContext.pointee.deadline_unix_ms : nil }

    /// Runs the skill and reports its outcome (``finish(_:)``): the body of the task `invoke` starts. Runs
    /// on that task's executor without a switch of its own.
    nonisolated(nonsending) func runSkill() async {
        guard let context = makeContext() else { return }
        finish(await CallOutcome.run(skill, arguments: arguments, context: context))
    }

    /// The skill's context, or nil when the call has already returned.
    private func makeContext() -> SkillContext? {
        // Started by `Task.immediate` inside `invoke` (as it always is): the host keeps the C context valid,
        // and `wait` (on this thread) copies the strings if the context outlives the call.
        if pthread_equal(pthread_self(), callThread) != 0 {
            let context = SkillContext(lazyCContext: callContext, channel: self)
            lazyContext = context
            return context
        }
        // Started elsewhere: the call may have returned already, so read the C context only while open.
        return state.withLock { state in state.context.map { SkillContext(cContext: $0, channel: self) } }
    }

    // MARK: - Skill side (any thread)

    /// Reports the task's outcome and wakes the call thread.
    func finish(_ outcome: CallOutcome) {
        let (accepted, wakeUp) = state.withLock { state in
            // After the call has returned without it, nobody takes the outcome: it is dropped.
            guard state.context != nil else { return (false, DispatchSemaphore?.none) }
            state.outcome = outcome
            return (true, state.wakeUp)
        }
        if accepted { wakeUp?.signal() } else { outcome.release() }
    }

    var isCancelled: Bool {
        guard hasCallbacks else { return false }
        return state.withLock { $0.context?.hostCancelled ?? true }  // an ended call reads as cancelled
    }

    func log(_ message: String, level: SkillContext.LogLevel) {
        guard hasCallbacks else { return }
        post { context in
            guard let context, let log = context.pointee.log else { return }
            var message = message
            message.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { log(context, level.rawValue, $0.baseAddress, $0.count) }
            }
        }
    }

    func value(forKey key: String) async -> JSONValue? {
        guard hasCallbacks else { return nil }
        return await withCheckedContinuation { (continuation: CheckedContinuation<JSONValue?, Never>) in
            post { context in
                guard let context, let get = context.pointee.context_get else {
                    return continuation.resume(returning: nil)
                }
                var bytes: UnsafePointer<CChar>?
                var length = 0
                guard get(context, key, &bytes, &length) != 0, let bytes else {
                    return continuation.resume(returning: nil)
                }
                let value = try? JSONValue(parsing: UnsafeRawBufferPointer(start: bytes, count: length))
                continuation.resume(returning: value)
            }
        }
    }

    func set(_ value: JSONValue, forKey key: String) async throws(SkillError) {
        let text = value.serialized()
        let status: skill_status? = await withCheckedContinuation { continuation in
            guard hasCallbacks else { return continuation.resume(returning: nil) }
            post { context in
                guard let context, let set = context.pointee.context_set else {
                    return continuation.resume(returning: nil)
                }
                var text = text
                let status = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { set(context, key, $0.baseAddress, $0.count) }
                }
                continuation.resume(returning: status)
            }
        }
        guard let status else {
            throw SkillError.failed(
                message: "cannot store \"\(key)\": the call has ended or the host has no session store")
        }
        guard status == SKILL_STATUS_OK else {
            throw SkillError.failed(message: "the host refused to store \"\(key)\" (status \(status))")
        }
    }

    private func post(_ request: @escaping Request) {
        let (accepted, wakeUp) = state.withLock { state in
            guard state.context != nil else { return (false, DispatchSemaphore?.none) }
            state.requests.append(request)
            return (true, state.wakeUp)
        }
        if accepted { wakeUp?.signal() } else { request(nil) }
    }

    // MARK: - Call thread

    /// Serves the task's requests until it finishes, or until the host cancels or the deadline passes and
    /// the task has had ``cancellationGrace`` to stop. Then closes the channel.
    /// - Parameters:
    ///   - task: the task running the skill; cancelled when the call must stop.
    ///   - deadline: milliseconds since the Unix epoch, or nil.
    func wait(for task: Task<Void, Never>, deadline: Int64?) -> CallOutcome {
        var stopReason: SkillError?
        var graceEnd = DispatchTime.distantFuture
        while true {
            let (requests, outcome, context, wakeUp) = state.withLock { state in
                if let outcome = state.outcome, state.requests.isEmpty {
                    // Finished with nothing left to serve (always so for a skill that did not suspend):
                    // take the outcome and close the channel in this one critical section.
                    state.outcome = nil
                    state.context = nil
                    return ([Request](), Optional(outcome), UnsafePointer<skill_call_context>?.none, DispatchSemaphore?.none)
                }
                defer {
                    state.requests.removeAll()
                    state.outcome = nil  // taken (when set): its owner is now this thread
                }
                if state.outcome == nil, state.requests.isEmpty, state.wakeUp == nil {
                    // About to block: from now on `finish` and `post` signal this (set under the same lock
                    // that saw no outcome, so no wake-up is lost).
                    state.wakeUp = DispatchSemaphore(value: 0)
                }
                return (state.requests, state.outcome, state.context, state.wakeUp)
            }
            if let outcome, requests.isEmpty {
                keepContextStrings()
                return outcome.stopped(by: stopReason)
            }
            for request in requests { request(context) }
            if let outcome { return close(with: outcome.stopped(by: stopReason)) }
            if !requests.isEmpty { continue }

            if stopReason == nil {
                if isCancelled {
                    stopReason = .cancelled
                } else if let deadline, SkillContext.nowUnixMilliseconds() >= deadline {
                    stopReason = .timedOut
                }
                if stopReason != nil {
                    task.cancel()
                    graceEnd = .now() + CallRendezvous.cancellationGrace
                }
            } else if DispatchTime.now() >= graceEnd, let stopReason {
                return close(with: .failure(stopReason))
            }
            _ = wakeUp?.wait(timeout: .now() + CallRendezvous.pollInterval)
        }
    }

    /// Copies the context's strings out of the C context unless nothing else holds the context any more
    /// (then it goes with this rendezvous). On the call thread, before the call returns.
    private func keepContextStrings() {
        guard var context = lazyContext else { return }
        lazyContext = nil
        if !isKnownUniquelyReferenced(&context) { context.keepStrings() }
    }

    /// Ends the call: later requests run with a nil context, queued ones are answered with nil, and an
    /// outcome that arrived after the last look (the call returns `outcome` instead) is released.
    private func close(with outcome: CallOutcome) -> CallOutcome {
        keepContextStrings()
        let (pending, late) = state.withLock { state in
            state.context = nil
            defer {
                state.requests.removeAll()
                state.outcome = nil
            }
            return (state.requests, state.outcome)
        }
        for request in pending { request(nil) }
        late?.release()
        return outcome
    }
}
