import Synchronization

/// The registry's `trust` policy, read again only when the registry file's status changed (one `stat`
/// per call instead of reading and parsing the registry). Used by ``TrustGate``'s registry initializer.
/// Thread-safe.
final class RegistryTrustPolicy: Sendable {
    private let registry: RegistryStore
    private let last = Mutex<(stamp: CatalogInputs.Stamp, policy: TrustPolicy)?>(nil)

    init(registry: RegistryStore) { self.registry = registry }

    /// The policy in the registry now.
    /// - Throws: ``HostError`` `registry` for a registry that does not parse or an unknown policy.
    func current() throws(HostError) -> TrustPolicy {
        let stamp = CatalogInputs.Stamp(path: registry.path)
        if let (known, policy) = last.withLock({ $0 }), known == stamp, !stamp.isMissing { return policy }
        let policy = try registry.read().trustPolicy
        // Remember it only when the file did not change while it was read.
        if CatalogInputs.Stamp(path: registry.path) == stamp { last.withLock { $0 = (stamp, policy) } }
        return policy
    }
}
