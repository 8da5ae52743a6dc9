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
    /// Trust and file permissions (``TrustGate``, policy read from the registry at each call), then rate
    /// limits (``RateLimitGate``, counted in a window file in the cache folder, so separate `skillhost call`
    /// processes share one limit).
    /// - Parameter diagnostics: receives the one-line warning about an untrusted plugin.
    public static func standard(
        for paths: HostPaths, diagnostics: DiagnosticSink
    ) -> [any CallGate] {
        [
            TrustGate(registry: RegistryStore(path: paths.registry), pluginsFolder: paths.plugins,
                      verifier: TrustVerifier(digestCache: DigestCacheFile(directory: paths.cache)), warn: diagnostics.warning),
            RateLimitGate(cacheDirectory: paths.cache),
            SandboxGate(warn: diagnostics.warning),
        ]
    }
}
