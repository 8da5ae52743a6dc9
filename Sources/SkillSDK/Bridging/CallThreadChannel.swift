import CSkillABI
import SkillJSON
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The host side of a ``SynchronousSkill``'s context: the skill runs on the thread inside `invoke`, so the
/// ABI's `[call-thread]` callbacks are called directly, with no task and no queue to serve.
///
/// Open from creation until ``close()``, which the call thread runs when `run` has returned and before
/// `invoke` does. Threads the skill started elsewhere: `isCancelled` works while open (the callback is
/// `[any-thread]`); their log lines wait here for ``close()``, which hands them to the host; session
/// values are not reachable from them (`[call-thread]` only, and the call thread is busy in `run`).
/// After ``close()`` the channel reads as cancelled, drops log lines and refuses values.
final class CallThreadChannel: ContextChannel {
    /// Unchecked: the C context pointer is only dereferenced while the channel is open, i.e. while the host
    /// keeps it valid.
    private struct State: @unchecked Sendable {
        var context: UnsafePointer<skill_call_context>?
        var pendingLines: [(message: String, level: SkillContext.LogLevel)] = []
    }

    private let state: Mutex<State>
    /// Whether the C context has the 1.0 callbacks (its struct_size covers them).
    private let hasCallbacks: Bool
    /// The thread inside `invoke`.
    private let callThread = pthread_self()

    init(context: UnsafePointer<skill_call_context>) {
        hasCallbacks = context.pointee.struct_size >= SKILL_CALL_CONTEXT_SIZE_1_0
        state = Mutex(State(context: context))
    }

    /// The C context when the caller may use its `[call-thread]` callbacks now: on the call thread, while
    /// open, from a host with callbacks.
    private var contextOnCallThread: UnsafePointer<skill_call_context>? {
        guard hasCallbacks, pthread_equal(pthread_self(), callThread) != 0 else { return nil }
        return state.withLock { $0.context }
    }

    /// Ends the call: hands the host the lines other threads logged, then closes. On the call thread only.
    func close() {
        let (context, lines) = state.withLock { state in
            defer {
                state.context = nil
                state.pendingLines = []
            }
            return (state.context, state.pendingLines)
        }
        guard hasCallbacks, let context else { return }
        for line in lines { CallThreadChannel.log(line.message, level: line.level, to: context) }
    }

    var isCancelled: Bool {
        guard hasCallbacks else { return false }
        return state.withLock { $0.context?.hostCancelled ?? true }  // an ended call reads as cancelled
    }

    func log(_ message: String, level: SkillContext.LogLevel) {
        guard hasCallbacks else { return }
        if let context = contextOnCallThread { return CallThreadChannel.log(message, level: level, to: context) }
        state.withLock { state in
            if state.context != nil { state.pendingLines.append((message, level)) }
        }
    }

    func value(forKey key: String) async -> JSONValue? {
        guard let context = contextOnCallThread, let get = context.pointee.context_get else { return nil }
        var bytes: UnsafePointer<CChar>?
        var length = 0
        guard get(context, key, &bytes, &length) != 0, let bytes else { return nil }
        return try? JSONValue(parsing: UnsafeRawBufferPointer(start: bytes, count: length))
    }

    func set(_ value: JSONValue, forKey key: String) async throws(SkillError) {
        guard let context = contextOnCallThread, let set = context.pointee.context_set else {
            throw SkillError.failed(
                message: "cannot store \"\(key)\": a synchronous skill reaches session values only on its call's "
                    + "thread while `run` runs, and only when the host has a session store",
                remedy: "write the skill as a `Skill` with an async `execute` to read and store session values")
        }
        var text = value.serialized()
        let status = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { set(context, key, $0.baseAddress, $0.count) }
        }
        guard status == SKILL_STATUS_OK else {
            throw SkillError.failed(message: "the host refused to store \"\(key)\" (status \(status))")
        }
    }

    /// Calls the host's `log` callback with `message`.
    private static func log(_ message: String, level: SkillContext.LogLevel, to context: UnsafePointer<skill_call_context>) {
        guard let log = context.pointee.log else { return }
        var message = message
        message.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { log(context, level.rawValue, $0.baseAddress, $0.count) }
        }
    }
}
