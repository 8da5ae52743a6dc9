import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Calls-per-minute limits per skill (registry `plugins.<id>.skills.<skill id>.rate_limit_per_minute`).
///
/// A sliding window: a call is admitted when fewer than `limit` calls were admitted in the last 60 seconds.
/// The window lives in this process: the agent and the MCP server keep one limiter for their lifetime, while
/// each `skillhost call` is a new process and starts with an empty window (documented in docs/isolation.md).
/// Thread-safe.
public final class RateLimiter: Sendable {
    /// The window length in seconds.
    public let window: Double
    private let clock: @Sendable () -> Double
    private let admitted = Mutex<[String: [Double]]>([:])

    /// A limiter with a 60-second window.
    /// - Parameter clock: seconds on a monotonic clock; tests pass a fake one.
    public init(window: Double = 60, clock: @escaping @Sendable () -> Double = Posix.monotonicSeconds) {
        self.window = window
        self.clock = clock
    }

    /// Admits one call of `skillID`, or throws when it would exceed `limitPerMinute`.
    /// - Parameters:
    ///   - skillID: the normalized skill id.
    ///   - limitPerMinute: the registry's limit; nil or a value ≤ 0 means no limit.
    /// - Throws: ``HostError`` of kind `rateLimited` saying the limit and in how many seconds to retry.
    public func admit(skillID: String, limitPerMinute: Int?) throws(HostError) {
        guard let limit = limitPerMinute, limit > 0 else { return }
        let now = clock()
        let retryAfter: Double? = admitted.withLock { table in
            var times = table[skillID, default: []]
            times.removeAll { $0 <= now - window }
            if times.count >= limit {
                table[skillID] = times
                return times[0] + window - now
            }
            times.append(now)
            table[skillID] = times
            return nil
        }
        if let retryAfter {
            throw Self.exceeded(skillID: skillID, limit: limit, retryAfter: max(1, Int(retryAfter.rounded(.up))))
        }
    }

    /// The error for a call over the limit: what the limit is and in how many seconds to retry.
    static func exceeded(skillID: String, limit: Int, retryAfter seconds: Int) -> HostError {
        HostError(
            .rateLimited,
            "skill \(skillID) is limited to \(limit) calls per minute; retry in \(seconds) s, or raise "
                + "rate_limit_per_minute for it in the registry",
            skillID: skillID, details: ["retry_after_seconds": .int(Int64(seconds)), "limit_per_minute": .int(Int64(limit))])
    }

}
