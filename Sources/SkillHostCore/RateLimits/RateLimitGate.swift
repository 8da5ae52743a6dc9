/// The pre-call check for `rate_limit_per_minute` (a ``CallGate``): admits a call while the skill had fewer
/// calls than its limit in the last minute, else refuses it with kind `rateLimited` and when to retry.
///
/// With a cache folder the window is the shared ``RateLimitWindowFile``, so separate `skillhost call`
/// processes count together; without one it lives in this process (``RateLimiter``). Thread-safe.
public final class RateLimitGate: CallGate {
    /// The in-process limiter, used when there is no window file.
    public let limiter: RateLimiter
    /// The shared window, when the gate has one.
    public let windowFile: RateLimitWindowFile?

    /// A gate with a window in this process only.
    public init(limiter: RateLimiter = RateLimiter()) {
        self.limiter = limiter
        windowFile = nil
    }

    /// A gate whose window is shared through `<cacheDirectory>/rate_limits.json` by all processes.
    public init(cacheDirectory: String) {
        limiter = RateLimiter()
        windowFile = RateLimitWindowFile(cacheDirectory: cacheDirectory)
    }

    public func check(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError) {
        do {
            if let windowFile {
                try windowFile.admit(skillID: skill.id, limitPerMinute: skill.rateLimitPerMinute)
            } else {
                try limiter.admit(skillID: skill.id, limitPerMinute: skill.rateLimitPerMinute)
            }
        } catch {
            var error = error
            error.pluginID = plugin.id
            throw error
        }
    }
}
