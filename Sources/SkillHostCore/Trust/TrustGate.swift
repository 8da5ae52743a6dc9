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
    /// The registry the policy comes from, when the gate reads it (``init(registry:pluginsFolder:verifier:warn:)``).
    private let registryPath: String?
    /// Verdicts that held, by plugin path, with the status of every file they depend on.
    private let verdicts = Mutex<[String: Verified]>([:])

    /// A verdict that held, and what it depended on.
    private struct Verified {
        /// The catalog build whose files it was checked against (builds are numbered once per process).
        var build: Int
        var stamps: [Posix.FileIdentity]
        var pinned: String?
    }

    /// - Parameters:
    ///   - pluginsFolder: also checked for unsafe permissions (nil: only the file and its folder).
    ///   - policy: the current trust policy (read per call, so registry edits apply at once).
    ///   - warn: receives the one-line warning for an untrusted plugin under `warn` (the library never
    ///     prints: pass ``DiagnosticSink/warning(_:)`` of the caller's sink).
    ///   - verifier: computes and remembers digests (one with a ``DigestCacheFile`` shares them across
    ///     processes).
    public convenience init(
        pluginsFolder: String?, policy: @escaping @Sendable () throws(HostError) -> TrustPolicy,
        verifier: TrustVerifier = TrustVerifier(),
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.init(pluginsFolder: pluginsFolder, registryPath: nil, policy: policy, verifier: verifier, warn: warn)
    }

    private init(
        pluginsFolder: String?, registryPath: String?, policy: @escaping @Sendable () throws(HostError) -> TrustPolicy,
        verifier: TrustVerifier, warn: @escaping @Sendable (String) -> Void
    ) {
        self.verifier = verifier
        self.pluginsFolder = pluginsFolder
        self.registryPath = registryPath
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
        self.init(pluginsFolder: pluginsFolder, registryPath: registry.path,
                  policy: { () throws(HostError) in try policy.current() }, verifier: verifier, warn: warn)
    }

    /// ``check(_:plugin:)`` with the status of the files it depends on already taken (`stamps`: the host's
    /// catalog snapshot, found current for this call): the plugin file, its folder, the plugins folder and
    /// the registry. A verdict that held for exactly these statuses (and this pinned digest) holds again
    /// without a `stat`; any change, or a path `stamps` does not know, checks afresh. Only a gate that reads
    /// its policy from the registry takes this way.
    /// `build` numbers the catalog build `stamps` come from (unique in the process): a verdict already
    /// checked against the same build holds without even comparing the statuses.
    func check(
        _ skill: SkillDescription, plugin: PluginRecord, build: Int, stamps: (String) -> Posix.FileIdentity?
    ) throws(HostError) {
        guard let registryPath else { return try check(skill, plugin: plugin) }
        let pinned = plugin.settings.sha256
        let known = verdicts.withLock { $0[plugin.path] }
        if let known, known.build == build, known.pinned == pinned { return }
        guard let key = dependencies(of: plugin.path, registryPath: registryPath, stamps: stamps) else {
            return try check(skill, plugin: plugin)
        }
        if let known, known.stamps == key, known.pinned == pinned {
            verdicts.withLock { $0[plugin.path]?.build = build }
            return
        }
        _ = try verdict(skill, plugin: plugin)
        verdicts.withLock { $0[plugin.path] = Verified(build: build, stamps: key, pinned: pinned) }
    }

    /// The status of every path the verdict for `pluginPath` reads, in a fixed order; nil when one is unknown.
    private func dependencies(
        of pluginPath: String, registryPath: String, stamps: (String) -> Posix.FileIdentity?
    ) -> [Posix.FileIdentity]? {
        var paths = [pluginPath, Posix.directoryName(of: pluginPath)]
        if let pluginsFolder, !paths.contains(pluginsFolder) { paths.append(pluginsFolder) }
        paths.append(registryPath)
        var key: [Posix.FileIdentity] = []
        key.reserveCapacity(paths.count)
        for path in paths {
            guard let stamp = stamps(path) else { return nil }
            key.append(stamp)
        }
        return key
    }

    public func check(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError) {
        _ = try verdict(skill, plugin: plugin)
    }

    private func verdict(_ skill: SkillDescription, plugin: PluginRecord) throws(HostError) -> TrustVerifier.Verdict {
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
        return verdict
    }
}
