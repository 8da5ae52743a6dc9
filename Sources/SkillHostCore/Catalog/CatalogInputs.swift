/// The status of every file and folder a catalog build reads, taken with one `stat` each and no reads:
/// the registry, the plugins folder and each file in it, the skills
/// folder with each skill folder and its `SKILL.md`, the crash history in the cache folder, and the
/// administrator's policy files
/// (trust digests are keyed by the plugin files' own status, already here). Two equal fingerprints mean
/// the build would read the same inputs, so the catalog built from the first can be reused.
///
/// The one list of the catalog's inputs: the per-process reuse (``ProcessCatalogCache``) and the listing
/// cache's key (``ListingFingerprint``, which adds what only a listing depends on) both read it, so a new
/// input is added here and nowhere else.
///
/// A folder's own status changes when an entry is added, removed or renamed in it, so a new plugin file or
/// skill folder shows even though only the entries known at the last build are visited.
struct CatalogInputs: Equatable, Sendable {
    /// The status of one path (a failed `stat` included).
    typealias Stamp = Posix.FileIdentity

    /// The paths, in a fixed order.
    let paths: [String]
    /// Their status, in the order of ``paths``.
    let stamps: [Stamp]

    /// The status of `paths` now.
    init(paths: [String]) {
        self.paths = paths
        stamps = paths.map(Stamp.init(path:))
    }

    /// The inputs of a build with these paths: lists the plugins folder and the skills folder (a build
    /// lists them too), then stats everything.
    static func listing(_ paths: HostPaths) -> CatalogInputs {
        var list = fixedPaths(paths)
        for name in pluginFileNames(in: paths.plugins) {
            // (The signature an install keeps beside a file is written by rename into this folder, which the
            // folder's own status shows; its verdict otherwise depends only on the file and the registry.)
            list.append(paths.plugins + "/" + name)
        }
        // The user's skills folder and a project's (trusted or not: trusting one changes the registry).
        for skills in [paths.skills] + paths.projectSkillFolders {
            for name in (Posix.directoryEntries(skills) ?? []).sorted() where !name.hasPrefix(".") {
                let folder = skills + "/" + name
                list += [folder, folder + "/SKILL.md", folder + "/skill.md"]
            }
        }
        return CatalogInputs(paths: list)
    }

    /// The same paths, stat'ed again (no folder is listed).
    func current() -> CatalogInputs { CatalogInputs(paths: paths) }

    /// Whether the paths still have the status they had; stops at the first difference.
    var isCurrent: Bool {
        for index in paths.indices where Stamp(path: paths[index]) != stamps[index] { return false }
        return true
    }

    /// The names of the plugin files a build considers in the plugins folder, sorted: `*.so`, hidden names
    /// skipped (the builder then drops folders among them).
    static func pluginFileNames(in folder: String) -> [String] {
        (Posix.directoryEntries(folder) ?? []).filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }.sorted()
    }

    /// The paths every build reads whatever the folders hold.
    static func fixedPaths(_ paths: HostPaths) -> [String] {
        [
            paths.registry, paths.plugins, paths.skills,
            paths.cache + "/" + PluginHealthStore.fileName,
        ] + paths.policyFiles + paths.projectSkillFolders
    }
}
