/// A check that runs before every call, after the skill is found and known to be enabled and before its
/// arguments are validated: trust, file permissions, rate limits. Throwing refuses the call.
///
/// Gates run in the order given to ``SkillHost``; they must be cheap and thread-safe.
public protocol CallGate: Sendable {
    /// Refuses the call by throwing (kind `denied`, `rateLimited`, …) with a one-line message and remedy.
    func check(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError)
}

/// The pre-call gates the host uses by default.
public enum CallGates {
    /// Trust, file permission and rate-limit checks, in that order.
    public static var standard: [any CallGate] { [] }
}
