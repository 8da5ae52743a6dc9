/// The pre-call check for `rate_limit_per_minute` (a ``CallGate``): admits a call while the skill had fewer
/// calls than its limit in the last minute, else refuses it with kind `rateLimited` and when to retry.
///
/// The window lives in this process (see ``RateLimiter``): the agent and the MCP server share one gate for
/// their lifetime; separate `skillhost call` processes do not see each other's calls. Thread-safe.
public final class RateLimitGate: CallGate {
    /// The limiter the gate admits calls through.
    public let limiter: RateLimiter

    public init(limiter: RateLimiter = RateLimiter()) { self.limiter = limiter }

    public func check(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError) {
        do {
            try limiter.admit(skillID: skill.id, limitPerMinute: skill.rateLimitPerMinute)
        } catch {
            var error = error
            error.pluginID = plugin.id
            throw error
        }
    }
}
