#if canImport(Glibc)
import Glibc
#endif
import SkillJSON

extension SkillHost {
    /// How ``installPackage(path:allowUnsigned:upgrade:)`` may treat a package.
    public struct PackageInstallOptions: Sendable {
        /// Install a package that is unsigned, signed by an unknown key or whose signature fails (pinned by
        /// its SHA-256, with no publisher).
        public var allowUnsigned: Bool
        /// Replace an installed version of the plugin (only with a higher version that keeps its skill ids).
        public var upgrade: Bool

        public init(allowUnsigned: Bool = false, upgrade: Bool = false) {
            self.allowUnsigned = allowUnsigned
            self.upgrade = upgrade
        }
    }

    /// Installs a plugin package (`.skillpkg`, ``PluginPackage``): reads and checks it (zip, listed files and
    /// digests, libraries' ELF headers), verifies its signature against the trusted keys (refused without
    /// `allowUnsigned` when it is unsigned, by an unknown key, or does not verify), applies the
    /// administrator's policy, validates the library for this machine in the sandboxed scanner and compares
    /// its manifest with the package's, then installs it as `<plugins>/<id>.so` in one rename, keeps the
    /// signature beside it (``InstalledSignature``) and records the pinned SHA-256 and the publisher in the
    /// registry. Nothing is written before every check passed. An installed plugin is replaced only with
    /// `upgrade`, by a higher version that keeps every skill id and comes from the same publisher.
    /// - Throws: ``HostError``: `invalidPlugin` (a bad package, an invalid library, a manifest that differs),
    ///   `denied` (signature, policy), `invalidArguments` (installed already, not an upgrade), `notFound`,
    ///   `io`, `registry`.
    public func installPackage(path: String, options: PackageInstallOptions = PackageInstallOptions()) throws(HostError) -> InstallReport {
        let file = Posix.absolutePath(path)
        let name = String(file.split(separator: "/").last ?? "")
        let size = try Posix.status(ofPath: file).size
        guard size <= Int64(PluginPackage.maximumFileSize) else {
            throw HostError(.invalidPlugin, "\(name): \(size) bytes is more than the \(PluginPackage.maximumFileSize >> 20) MiB a package may have; not installed")
        }
        let package = try PluginPackage(data: try Posix.readFile(atPath: file, limit: PluginPackage.maximumFileSize), name: name)
        let registry = try registryStore.read()
        let policy = AdminPolicy.load(files: paths.policyFiles)
        if let failure = policy.failure { throw HostError(.denied, "\(name): not installed: \(failure)") }
        let signature = PackageSignature.check(package.index, signature: package.signature, keys: PackageSignature.trustedKeys(registry: registry, policy: policy))
        if let refusal = signature.refusal(package: name), !options.allowUnsigned {
            throw HostError(.denied, refusal, pluginID: package.pluginID)
        }
        let publisher = signature.publisher
        let library = try package.hostLibrary()
        let digest = FileDigest.sha256(of: library)
        let subject = PolicySubject(id: package.pluginID, version: package.version, publisher: publisher?.key.id, digest: { digest })
        if let reason = policy.blockingReason(plugin: subject, publisherLabel: publisher?.label) {
            throw HostError(.denied, "\(name): not installed: \(reason)", pluginID: package.pluginID)
        }

        try Posix.makeDirectories(paths.plugins)
        let lock = try Posix.lockExclusively(paths.plugins + "/.install.lock")
        defer { Posix.unlock(lock) }
        let staging = paths.plugins + "/.\(package.pluginID).so.\(getpid()).installing"
        try Posix.writeFileAtomically(staging, bytes: library, mode: 0o644)
        defer { try? Posix.hostError { () throws(Posix.Failure) in try Posix.removeFile(staging) } }
        let report = try validate(path: staging)
        guard report.isValid, let manifest = report.manifest else {
            throw HostError(
                report.isBroken ? .pluginCrashed : .invalidPlugin,
                "\(name): not installed: its library is not a valid plugin: \(report.problems.joined(separator: "; "))", pluginID: package.pluginID)
        }
        if manifest.id != package.pluginID || manifest.version != package.version || manifest.document != package.manifest {
            let at = Self.firstDifference(manifest.document, package.manifest) ?? ""
            throw HostError(
                .invalidPlugin,
                "\(name): not installed: manifest.json differs from the manifest its library returns (at \(at.isEmpty ? "/" : at)); the package was not made from this library: repack it with 'skillhost pack'",
                pluginID: package.pluginID)
        }
        let target = paths.plugins + "/" + manifest.id + ".so"
        var previous: (path: String, version: String)?
        if let existing = try catalog().plugin(manifest.id), let old = existing.manifest {
            try Self.checkReplacement(
                old: old, new: manifest, oldPublisher: registry.pluginPublisher(manifest.id), newPublisher: publisher,
                options: options, package: name)
            previous = (existing.path, old.version)
        }
        // The signature first, then the library (one rename), so a catalog build never sees the new library
        // with no signature; a build in between sees the old library with the new signature, as unverified.
        let signatureFiles = InstalledSignature.paths(of: target)
        if publisher != nil, let packageSignature = package.signature {
            try Posix.writeFileAtomically(signatureFiles[0], bytes: package.index, mode: 0o644)
            try Posix.writeFileAtomically(signatureFiles[1], bytes: Array(packageSignature.fileText.utf8), mode: 0o644)
        } else {
            for path in signatureFiles where Posix.exists(path) {
                try Posix.hostError { () throws(Posix.Failure) in try Posix.removeFile(path) }
            }
        }
        try Posix.hostError { () throws(Posix.Failure) in try Posix.rename(staging, to: target) }
        if let previous, previous.path != target {
            // An upgrade replaces the plugin wherever it was installed from.
            try? Posix.hostError { () throws(Posix.Failure) in try Posix.removeFile(previous.path) }
        }
        try registryStore.update { registry in
            registry.setPluginSHA256(digest, plugin: manifest.id)
            registry.setPluginValue(publisher.map { .string($0.key.id) }, forKey: "publisher", plugin: manifest.id)
        }
        var installed = InstallReport(pluginID: manifest.id, version: manifest.version, installedPath: target, replaced: previous != nil)
        installed.repinnedSHA256 = digest
        installed.publisher = publisher
        installed.previousVersion = previous?.version
        return installed
    }

    /// Refuses to replace `old` with `new` unless `options.upgrade` allows it: a higher version, every skill
    /// id kept, the same publisher.
    private static func checkReplacement(
        old: PluginManifest, new: PluginManifest, oldPublisher: String?, newPublisher: TrustedPublisher?,
        options: PackageInstallOptions, package name: String
    ) throws(HostError) {
        let id = new.id
        let higher = SemanticVersion.compare(new.version, old.version) == .descending
        guard options.upgrade || !higher else {
            throw HostError(
                .invalidArguments,
                "\(name): not installed: plugin \(id) \(old.version) is installed already; to replace it with \(new.version) run 'skillhost install --upgrade \(name)'",
                pluginID: id)
        }
        guard higher else {
            // Not an upgrade whatever the flag: say so rather than suggest --upgrade, which would refuse too.
            let same = new.version == old.version
            throw HostError(
                .invalidArguments,
                "\(name): not \(options.upgrade ? "upgraded" : "installed"): plugin \(id) \(old.version) is installed and the package has \(same ? "the same version" : new.version); --upgrade installs only a higher version (to \(same ? "reinstall it" : "go back"), 'skillhost remove \(id)' first)",
                pluginID: id)
        }
        let kept = Set(new.skills.map(\.id))
        let gone = old.skills.map(\.id).filter { !kept.contains($0) }
        guard gone.isEmpty else {
            throw HostError(
                .invalidArguments,
                "\(name): not upgraded: \(new.version) no longer has the skill\(gone.count == 1 ? "" : "s") \(gone.joined(separator: ", ")) that \(old.version) has (registry entries, history and agents refer to skill ids); to drop \(gone.count == 1 ? "it" : "them") anyway, 'skillhost remove \(id)', then install",
                pluginID: id)
        }
        if let oldPublisher, oldPublisher != newPublisher?.key.id {
            let now = newPublisher.map { "by \($0.label)" } ?? "unsigned"
            throw HostError(
                .denied,
                "\(name): not upgraded: plugin \(id) \(old.version) was signed by key \(oldPublisher) and this package is \(now); an upgrade keeps its publisher (to change it, 'skillhost remove \(id)', then install)",
                pluginID: id)
        }
    }

    /// The JSON pointer of the first place two values differ (nil when equal).
    static func firstDifference(_ left: JSONValue, _ right: JSONValue, at pointer: String = "") -> String? {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            for key in a.keys + b.keys.filter({ a[$0] == nil }) {
                let next = pointer + "/" + JSONPointer.escape(key)
                guard let x = a[key], let y = b[key] else { return next }
                if let found = firstDifference(x, y, at: next) { return found }
            }
            return nil
        case (.array(let a), .array(let b)):
            for index in 0..<max(a.count, b.count) {
                guard index < a.count, index < b.count else { return pointer + "/\(index)" }
                if let found = firstDifference(a[index], b[index], at: pointer + "/\(index)") { return found }
            }
            return nil
        default:
            return left == right ? nil : pointer
        }
    }
}
