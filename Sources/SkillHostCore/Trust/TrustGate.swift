import Synchronization

/// The pre-call check for plugin trust and file permissions (a ``CallGate``): refuses a plugin file others
/// can write, a trusted plugin whose file changed (both digests in the message), and, when the registry's
/// `trust` is `required`, an untrusted plugin. Under `warn`, an untrusted plugin runs and ``warn`` gets one
/// line, once per plugin for the life of the gate. Thread-safe.
public final class TrustGate: CallGate {
    private let verifier: TrustVerifier
    private let pluginsFolder: String?
    private let policy: @Sendable () throws(HostError) -> TrustPolicy
    private let warn: @Sendable (String) -> Void
    private let warned = Mutex<Set<String>>([])

    /// - Parameters:
    ///   - pluginsFolder: also checked for unsafe permissions (nil: only the file and its folder).
    ///   - policy: the current trust policy (read per call, so registry edits apply at once).
    ///   - warn: receives the one-line warning for an untrusted plugin under `warn` (the library never
    ///     prints: pass ``DiagnosticSink/warning(_:)`` of the caller's sink).
    ///   - verifier: computes and remembers digests (one with a ``DigestCacheFile`` shares them across
    ///     processes).
    public init(
        pluginsFolder: String?, policy: @escaping @Sendable () throws(HostError) -> TrustPolicy,
        verifier: TrustVerifier = TrustVerifier(),
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.verifier = verifier
        self.pluginsFolder = pluginsFolder
        self.policy = policy
        self.warn = warn
    }

    /// A gate that takes the policy from the registry (`trust`) at each call: read again whenever the
    /// registry file's status changed (a `stat` per call), so edits apply at once.
    public convenience init(
        registry: RegistryStore, pluginsFolder: String?, verifier: TrustVerifier = TrustVerifier(),
        warn: @escaping @Sendable (String) -> Void
    ) {
        let policy = RegistryTrustPolicy(registry: registry)
        self.init(pluginsFolder: pluginsFolder, policy: { () throws(HostError) in try policy.current() },
                  verifier: verifier, warn: warn)
    }

    public func check(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError) {
        let verdict: TrustVerifier.Verdict
        do {
            verdict = try verifier.verify(
                pluginID: plugin.id, pluginPath: plugin.path, pinnedSHA256: plugin.settings.sha256, policy: try policy(),
                extraFolders: pluginsFolder.map { [$0] } ?? [])
        } catch {
            var error = error
            error.skillID = skill.id
            throw error
        }
        if case .untrusted(let warning) = verdict, warned.withLock({ $0.insert(plugin.id).inserted }) {
            warn(warning)
        }
    }
}
