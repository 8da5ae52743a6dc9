import SkillJSON
#if canImport(Glibc)
import Glibc
#endif

/// Everything the catalog (and so `list`'s output) is made from, written out as bytes that two processes
/// compare exactly: the key of the ``ListingCache``.
///
/// It holds every input the catalog reads, from the one list of them (``CatalogInputs``: the registry, the
/// plugins folder and each plugin file in it, the skills folder with each skill folder and its `SKILL.md`,
/// the crash history), each with its identity (device, inode, size, modification and status-change times,
/// mode, owner); then what only a listing depends on: the output's `format`, the running executable (a new
/// build may check or print differently), the user, the kernel's Landlock ABI (sandbox labels), the host
/// paths, the scan cache (a worker marking a file broken) and the instruction skills as the catalog builds
/// them. A change to any of these makes another key. A new input of the catalog goes into
/// ``CatalogInputs``, which both this key and the per-process catalog reuse read.
struct ListingFingerprint {
    var paths: HostPaths
    var registry: () throws(HostError) -> Registry

    /// The key for `format` (e.g. `"list --json"`) as things are now.
    /// - Throws: ``HostError`` when the registry is malformed (only read when instruction skills exist).
    func key(format: String) throws(HostError) -> [UInt8] {
        var text = "format \(format)\n"
        text += "exe " + Self.identity(of: "/proc/self/exe") + "\n"
        text += "uid \(getuid()) landlock \(KernelSandbox.landlockABI)\n"
        for (name, path) in [("plugins", paths.plugins), ("registry", paths.registry), ("cache", paths.cache),
                             ("data", paths.data), ("skills", paths.skills), ("project", paths.project ?? "-")] {
            text += "path \(name) \(path)\n"
        }
        // Every input the catalog reads, from the one list; then what only the listing depends on.
        let inputs = CatalogInputs.listing(paths)
        for (path, stamp) in zip(inputs.paths, inputs.stamps) {
            text += "input \(path) \(stamp)\n"
        }
        text += "scan " + Self.identity(of: ScanCache(directory: paths.cache).file) + "\n"
        text += try instructions()
        return Array(text.utf8)
    }

    /// The instruction skills as the catalog would find them (their summary, folder and whether their
    /// front matter parsed), or nothing when the skills folder holds nothing.
    private func instructions() throws(HostError) -> String {
        guard ([paths.skills] + paths.projectSkillFolders).contains(where: ProjectSkills.holdsSkills) else { return "skills none\n" }
        let records = InstructionCatalogBuilder(
            paths: paths, cache: InstructionCache(directory: paths.cache), registry: try registry()
        ).build(forceRescan: false)
        var text = ""
        for record in records {
            // Compact JSON has no raw newline: one line per skill.
            text += "skill \(record.folder) \(record.frontmatter != nil) " + record.summaryJSON.serialized() + "\n"
        }
        return text
    }

    /// `dev ino size mtime ctime mode uid` of what `path` leads to, or `missing ERRNO`.
    static func identity(of path: String) -> String { Posix.FileIdentity(path: path).description }
}
