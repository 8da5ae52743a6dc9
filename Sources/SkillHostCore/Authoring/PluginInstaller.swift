/// What ``SkillHost/install(path:)`` did.
public struct InstallReport: Sendable {
    /// The plugin's id and version, from its manifest.
    public var pluginID: String
    public var version: String
    /// Where the file now is: `<plugins folder>/<plugin id>.so`.
    public var installedPath: String
    /// Whether a file was there before (and was replaced in one rename).
    public var replaced: Bool
}

extension SkillHost {
    /// Installs a plugin file into the plugins folder as `<plugin id>.so`, replacing any file of that name
    /// atomically: the file is validated first (as ``validate(path:)``; an invalid file is never copied),
    /// copied to a temporary name, fsynced and renamed over the old one, so a host scanning the folder or
    /// a running chat sees the old plugin or the new one, never half a file. Concurrent installs take turns
    /// (an exclusive `flock` on `<plugins folder>/.install.lock`).
    ///
    /// A pinned SHA-256 (`skillhost trust`) is not updated: with `trust: required` the new file is refused
    /// until it is trusted again.
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
        if Posix.absolutePath(path) != target {
            let bytes = try Posix.readFile(atPath: report.path, limit: 1 << 30)
            try Posix.writeFileAtomically(target, bytes: bytes, mode: 0o644)
        }
        return InstallReport(pluginID: manifest.id, version: manifest.version, installedPath: target, replaced: replaced)
    }
}
