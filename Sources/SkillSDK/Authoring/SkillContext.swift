import SkillJSON
internal import SkillPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Everything a skill may know about the current call, and its ways back into the host: logging,
/// cancellation and the session's shared values.
///
/// Thread-safe. Valid while ``Skill/execute(_:context:)`` runs; once the call has returned, the host side is
/// gone: ``isCancelled`` reads `true`, ``value(forKey:)`` returns `nil`, ``set(_:forKey:)`` throws and
/// ``log(_:level:)`` drops the line.
///
/// Make one with ``init(callID:sessionID:idempotencyKey:deadlineUnixMilliseconds:configuration:dataDirectory:values:)``
/// to test a skill without a host.
public final class SkillContext: Sendable {
    /// Severity of a log line.
    public enum LogLevel: Int32, Sendable, CaseIterable {
        case debug = 0
        case info, warning, error
    }

    /// Unique id of this call, for logs and traces.
    public var callID: String { strings.callID }
    /// The conversation the call belongs to; "" outside a session.
    public var sessionID: String { strings.sessionID }
    /// The same for retries of one logical call: a skill with side effects uses it to avoid repeating them.
    public var idempotencyKey: String { strings.idempotencyKey }
    /// Wall-clock deadline in milliseconds since the Unix epoch, when the call has one.
    public let deadlineUnixMilliseconds: Int64?
    /// The plugin's configuration from the user's registry (an object, `{}` when none).
    public let configuration: JSONValue
    /// A folder the plugin may keep data in; it exists when the call starts.
    public var dataDirectory: String { strings.dataDirectory }

    let channel: any ContextChannel

    /// The call's strings, or where to copy them from on first use (``CallStrings``).
    private let lazyStrings: Mutex<LazyCallStrings>

    init(
        callID: String, sessionID: String, idempotencyKey: String, deadlineUnixMilliseconds: Int64?,
        configuration: JSONValue, dataDirectory: String, channel: any ContextChannel
    ) {
        lazyStrings = Mutex(
            .copied(
                CallStrings(
                    callID: callID, sessionID: sessionID, idempotencyKey: idempotencyKey,
                    dataDirectory: dataDirectory)))
        self.deadlineUnixMilliseconds = deadlineUnixMilliseconds
        self.configuration = configuration
        self.channel = channel
    }

    /// A context with `strings` copied or pending; a pending source must stay valid until ``keepStrings()``
    /// (or until the context is gone).
    init(
        strings: LazyCallStrings, deadlineUnixMilliseconds: Int64?, configuration: JSONValue,
        channel: any ContextChannel
    ) {
        lazyStrings = Mutex(strings)
        self.deadlineUnixMilliseconds = deadlineUnixMilliseconds
        self.configuration = configuration
        self.channel = channel
    }

    /// The strings, copied now if they are still pending.
    private var strings: CallStrings {
        lazyStrings.withLock { state in
            switch state {
            case .copied(let strings): return strings
            case .pending(let source):
                let strings = source.callStrings()
                state = .copied(strings)
                return strings
            }
        }
    }

    /// Copies the strings if they are still pending: the call's end, after which their source is gone.
    func keepStrings() { _ = strings }

    /// A context without a host, for testing skills: session values live in memory and log lines are kept
    /// in ``loggedLines``.
    public convenience init(
        callID: String = "local-call", sessionID: String = "", idempotencyKey: String = "",
        deadlineUnixMilliseconds: Int64? = nil, configuration: JSONValue = [:], dataDirectory: String = "/tmp",
        values: [String: JSONValue] = [:]
    ) {
        self.init(
            callID: callID, sessionID: sessionID, idempotencyKey: idempotencyKey,
            deadlineUnixMilliseconds: deadlineUnixMilliseconds, configuration: configuration,
            dataDirectory: dataDirectory, channel: LocalContextChannel(values: values))
    }

    /// Whether the host has cancelled the call or its deadline has passed. Cheap; poll it in loops.
    public var isCancelled: Bool { channel.isCancelled || remainingMilliseconds.map { $0 <= 0 } ?? false }

    /// Time left before the deadline (negative once it has passed), when the call has one.
    public var remainingTime: Duration? { remainingMilliseconds.map { .milliseconds($0) } }

    private var remainingMilliseconds: Int64? {
        deadlineUnixMilliseconds.map { $0 - SkillContext.nowUnixMilliseconds() }
    }

    /// Throws when the call should stop: ``SkillError/timedOut`` past the deadline, ``SkillError/cancelled``
    /// when the host or the task was cancelled.
    public func checkCancellation() throws(SkillError) {
        if let remaining = remainingMilliseconds, remaining <= 0 { throw SkillError.timedOut }
        if channel.isCancelled || Task.isCancelled { throw SkillError.cancelled }
    }

    /// Writes one log line attributed to this call. Never blocks; never writes to stdout.
    public func log(_ message: String, level: LogLevel = .info) {
        channel.log(message, level: level)
    }

    /// The value an earlier skill of this session stored under `key`, or nil.
    public func value(forKey key: String) async -> JSONValue? {
        await channel.value(forKey: key)
    }

    /// Stores `value` under `key` in the session, for later skills to read.
    /// - Throws: ``SkillError`` when the host refuses the value or the call has already ended.
    public func set(_ value: JSONValue, forKey key: String) async throws(SkillError) {
        try await channel.set(value, forKey: key)
    }

    /// Log lines written through a context made for testing, as `(level, message)`; empty for host calls.
    public var loggedLines: [(level: LogLevel, message: String)] {
        (channel as? LocalContextChannel)?.lines ?? []
    }

    /// Milliseconds since the Unix epoch, from the real-time clock (``Posix/unixMilliseconds()``).
    static func nowUnixMilliseconds() -> Int64 { Posix.unixMilliseconds() }
}
