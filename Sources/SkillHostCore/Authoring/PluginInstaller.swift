/// What ``SkillHost/install(path:)`` did.
public struct InstallReport: Sendable {
    /// The plugin's id and version, from its manifest.
    public var pluginID: String
    public var version: String
    /// Where the file now is: `<plugins folder>/<plugin id>.so`.
    public var installedPath: String
    /// Whether a file was there before (and was replaced in one rename).
    public var replaced: Bool
    /// The publisher whose signature verified (a package install); nil otherwise.
    public var publisher: TrustedPublisher? = nil
    /// The version replaced by an upgrade.
    public var previousVersion: String? = nil
    /// The SHA-256 now pinned for the plugin: by a package install always; by a library install when the
    /// plugin had a pin (`skillhost trust`) and the install moved it to the new file; nil otherwise.
    public var repinnedSHA256: String? = nil
}

extension SkillHost {
    /// Installs a plugin file into the plugins folder as `<plugin id>.so`, replacing any file of that name
    /// atomically: the file is validated first (as ``validate(path:)``; an invalid file is never copied),
    /// copied to a temporary name, fsynced and renamed over the old one, so a host scanning the folder or
    /// a running chat sees the old plugin or the new one, never half a file. Concurrent installs take turns
    /// (an exclusive `flock` on `<plugins folder>/.install.lock`).
    ///
    /// A plugin the user trusted (`skillhost trust` pinned its SHA-256) stays trusted: the pin moves to the
    /// installed file in the same registry update, since installing a file is as deliberate as trusting it.
    /// An install never pins a plugin that had no pin.
    /// - Throws: ``HostError`` `.invalidPlugin` (with every problem), `.pluginCrashed` when the file crashes
    ///   the checker, `.notFound` for a missing file, `.io` when the copy fails.
    public func install(path: String) throws(HostError) -> InstallReport {
        let report = try validate(path: path)
        guard report.isValid, let manifest = report.manifest else {
            let problems = report.problems.joined(separator: "; ")
            throw HostError(
                report.isBroken ? .pluginCrashed : .invalidPlugin,
                "not installed: \(problems); fix the plugin and check it with 'skillhost validate \(path)'")
        }
        try Posix.makeDirectories(paths.plugins)
        let lock = try Posix.lockExclusively(paths.plugins + "/.install.lock")
        defer { Posix.unlock(lock) }
        let target = paths.plugins + "/" + manifest.id + ".so"
        let replaced = Posix.exists(target)
        let bytes = try Posix.readFile(atPath: report.path, limit: 1 << 30)
        if Posix.absolutePath(path) != target {
            try Posix.writeFileAtomically(target, bytes: bytes, mode: 0o644)
        }
        var installed = InstallReport(pluginID: manifest.id, version: manifest.version, installedPath: target, replaced: replaced)
        // A signature kept from a package install does not describe this file: it goes, with the publisher.
        for file in InstalledSignature.paths(of: target) where Posix.exists(file) {
            try Posix.hostError { () throws(Posix.Failure) in try Posix.removeFile(file) }
        }
        // Only a plugin pinned before gets a new pin (and only then is the registry written).
        let before = try? registryStore.read()
        guard before?.pluginSettings(manifest.id).sha256 != nil || before?.pluginPublisher(manifest.id) != nil else { return installed }
        let digest = FileDigest.sha256(of: bytes)
        try registryStore.update { registry in
            registry.setPluginValue(nil, forKey: "publisher", plugin: manifest.id)
            guard registry.pluginSettings(manifest.id).sha256 != nil else { return }
            registry.setPluginSHA256(digest, plugin: manifest.id)
            installed.repinnedSHA256 = digest
        }
        return installed
    }
}
