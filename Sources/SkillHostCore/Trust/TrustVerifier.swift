import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Decides whether a plugin file may run, from its pinned SHA-256 (registry `plugins.<id>.sha256`) and the
/// trust policy (registry `trust`). Also checks the file's permissions (see ``FilePermissionCheck``).
///
/// Digests are cached per file identity (device, inode, size, modification time), so a call costs a `stat`
/// unless the file changed. Thread-safe.
public final class TrustVerifier: Sendable {
    /// What a check found when the plugin may run.
    public enum Verdict: Sendable, Equatable {
        /// The file has the pinned digest.
        case trusted
        /// No digest is pinned and the policy is `warn`: the plugin runs; show this one-line warning.
        case untrusted(warning: String)
    }

    /// Digests by path, each with the identity (`Posix.FileIdentity`) its file had when it was hashed.
    private let digests = Mutex<[String: (Posix.FileIdentity, String)]>([:])
    private let digestCache: DigestCacheFile?

    /// A verifier; with `digestCache`, digests are also remembered across processes.
    public init(digestCache: DigestCacheFile? = nil) {
        self.digestCache = digestCache
    }

    /// Checks one plugin before a call.
    /// - Parameters:
    ///   - pluginID: the plugin's id (for messages).
    ///   - pluginPath: absolute path of its file.
    ///   - pinnedSHA256: the digest recorded by `skillhost trust`, or nil.
    ///   - policy: the registry's trust policy.
    ///   - extraFolders: folders whose permissions are checked too (the plugins folder).
    /// - Returns: whether the plugin is trusted or runs with a warning.
    /// - Throws: ``HostError`` of kind `denied` when the file changed since it was trusted (both digests in
    ///   the message), when the policy requires trust and none is recorded, or when permissions are unsafe.
    public func verify(
        pluginID: String, pluginPath: String, pinnedSHA256: String?, policy: TrustPolicy, extraFolders: [String] = []
    ) throws(HostError) -> Verdict {
        try FilePermissionCheck.verify(pluginPath: pluginPath, pluginID: pluginID, extraFolders: extraFolders)
        if let pinned = pinnedSHA256?.lowercased(), !pinned.isEmpty {
            let actual = try digest(of: pluginPath)
            guard actual == pinned else {
                throw HostError(
                    .denied,
                    "plugin \(pluginID): the file \(pluginPath) changed since it was trusted (trusted sha256 \(pinned), "
                        + "file now has \(actual)); if you expect the change, run 'skillhost trust \(pluginID)' again",
                    pluginID: pluginID, details: ["trusted_sha256": .string(pinned), "actual_sha256": .string(actual)])
            }
            return .trusted
        }
        switch policy {
        case .required:
            throw HostError(
                .denied,
                "plugin \(pluginID) is not trusted and the registry's trust policy is \"required\"; review "
                    + "\(pluginPath), then run 'skillhost trust \(pluginID)'",
                pluginID: pluginID)
        case .warn:
            return .untrusted(
                warning: "warning: plugin \(pluginID) (\(pluginPath)) is not trusted; run 'skillhost trust "
                    + "\(pluginID)' to pin its SHA-256")
        }
    }

    /// The SHA-256 of `path`, from the cache when the file is unchanged.
    /// - Throws: ``HostError`` of kind `io` or `notFound`.
    public func digest(of path: String) throws(HostError) -> String {
        let identity = Posix.FileIdentity(path: path)
        guard !identity.isMissing else {
            throw HostError(
                identity.error == ENOENT ? .notFound : .io, "cannot read \(path): \(Posix.describe(errno: identity.error))")
        }
        if let (known, digest) = digests.withLock({ $0[path] }), known == identity { return digest }
        let key = ScanCache.FileKey(size: identity.size, modificationNanoseconds: identity.modified, inode: identity.inode)
        if let digestCache, let digest = digestCache.digest(forPath: path, key: key) {
            digests.withLock { $0[path] = (identity, digest) }
            return digest
        }
        let digest = try FileDigest.sha256(ofFile: path)
        digests.withLock { $0[path] = (identity, digest) }
        try? digestCache?.store(digest, forPath: path, key: key)
        return digest
    }
}
