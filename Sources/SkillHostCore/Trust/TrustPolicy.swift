/// Whether plugins that nobody trusted with `skillhost trust ID` may run (registry key `trust`).
public enum TrustPolicy: String, Sendable, CaseIterable {
    /// Untrusted plugins run, with a one-line warning on stderr. The default.
    case warn
    /// Untrusted plugins are refused until trusted.
    case required

    /// The policy named by the registry value, `warn` when absent.
    /// - Throws: ``HostError`` of kind `registry` for any other value, naming the valid ones.
    public init(registryValue: String?) throws(HostError) {
        guard let registryValue else {
            self = .warn
            return
        }
        guard let policy = TrustPolicy(rawValue: registryValue) else {
            throw HostError(
                .registry,
                "registry key /trust is \"\(registryValue)\"; use \"warn\" (run untrusted plugins with a warning) "
                    + "or \"required\" (refuse them)")
        }
        self = policy
    }
}
