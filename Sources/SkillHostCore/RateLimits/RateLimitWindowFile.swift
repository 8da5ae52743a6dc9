import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// A rate-limit window shared by every process of one user: `<cache>/rate_limits.json`, holding for each
/// skill the Unix times (seconds) of the calls admitted in the last minute.
///
/// ```json
/// {"version": 1, "skills": {"clock.now": [1764423301.25, 1764423302.5]}}
/// ```
/// Each admission reads and rewrites the file under an exclusive lock on `rate_limits.json.lock` (temp +
/// fsync + rename), so separate `skillhost call` processes, the agent and the MCP server count together.
/// That costs a few milliseconds, paid only by skills that have a limit. A file that does not parse is
/// replaced (it is a cache). Thread-safe.
public struct RateLimitWindowFile: Sendable {
    /// The file name inside the cache folder.
    public static let fileName = "rate_limits.json"

    /// Path of the JSON file.
    public let path: String
    /// The window length in seconds.
    public let window: Double
    private let clock: @Sendable () -> Double

    /// The window file in `cacheDirectory`.
    /// - Parameter clock: Unix time in seconds; tests pass a fake one.
    public init(
        cacheDirectory: String, window: Double = 60,
        clock: @escaping @Sendable () -> Double = Posix.unixSeconds
    ) {
        path = cacheDirectory + "/" + Self.fileName
        self.window = window
        self.clock = clock
    }

    /// Admits one call of `skillID`, or throws when it would exceed `limitPerMinute` (nil or ≤ 0: no limit,
    /// and the file is not touched).
    /// - Throws: ``HostError`` `rateLimited` with when to retry, or `io` when the file cannot be written.
    public func admit(skillID: String, limitPerMinute: Int?) throws(HostError) {
        guard let limit = limitPerMinute, limit > 0 else { return }
        let lock = try Posix.lockExclusively(path + ".lock")
        defer { Posix.unlock(lock) }
        let now = clock()
        var root = (try? JSONValue(parsing: Posix.readFile(atPath: path)))?.objectValue ?? [:]
        var skills = root["skills"]?.objectValue ?? [:]
        // Forget windows that ended, for every skill, so the file stays small.
        for (id, times) in skills.members {
            let recent = (times.arrayValue ?? []).compactMap(\.doubleValue).filter { $0 > now - window && $0 <= now }
            skills[id] = recent.isEmpty ? nil : .array(recent.map(JSONValue.double))
        }
        let times = (skills[skillID]?.arrayValue ?? []).compactMap(\.doubleValue)
        if times.count >= limit {
            let retryAfter = max(1, Int(((times.min() ?? now) + window - now).rounded(.up)))
            throw RateLimiter.exceeded(skillID: skillID, limit: limit, retryAfter: retryAfter)
        }
        skills[skillID] = .array((times + [now]).map(JSONValue.double))
        root["version"] = 1
        root["skills"] = .object(skills)
        try Posix.writeFileAtomically(path, bytes: JSONValue.object(root).serializedBytes())
    }

}
