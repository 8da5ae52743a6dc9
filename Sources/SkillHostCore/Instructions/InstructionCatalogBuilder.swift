import Glibc
import SkillJSON

/// Lists the skills folders — a trusted project's `.agents/skills/` and `.claude/skills/`, then the user's
/// (``ProjectSkills``) —: one ``InstructionSkillRecord`` per sub-folder (hidden ones skipped), with unchanged
/// `SKILL.md` files taken from the ``InstructionCache``. Every problem of a folder is on its record; none
/// hides another folder, except that of skills of one name in several of these folders only the first
/// folder's is kept (it notes the others in ``InstructionSkillRecord/shadows``).
struct InstructionCatalogBuilder {
    var roots: [InstructionRoot]
    var cache: InstructionCache
    var registry: Registry

    /// The builder of the skills folders of `paths` (a trusted project's first).
    init(paths: HostPaths, cache: InstructionCache, registry: Registry) {
        self.roots = ProjectSkills.roots(paths, registry: registry).roots
        self.cache = cache
        self.registry = registry
    }

    func build(forceRescan: Bool) -> [InstructionSkillRecord] {
        let registered = RegisteredIDs(registry)
        let cached = forceRescan ? [:] : cache.load()
        var fresh: [String: InstructionCache.Entry] = [:]
        var changed = forceRescan
        var records: [InstructionSkillRecord] = []
        for root in roots {
            records += build(root, registered: registered, cached: cached, fresh: &fresh, changed: &changed)
        }
        if changed || fresh.count != cached.count {
            try? cache.store(fresh)
        }
        return roots.count > 1 ? ProjectSkills.resolveCollisions(records, roots: roots) : records
    }

    private func build(
        _ root: InstructionRoot, registered: RegisteredIDs, cached: [String: InstructionCache.Entry],
        fresh: inout [String: InstructionCache.Entry], changed: inout Bool
    ) -> [InstructionSkillRecord] {
        let skillsFolder = root.folder
        guard let listing = Posix.typedDirectoryEntries(skillsFolder) else { return [] }
        let types = Dictionary(listing.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        let names = listing.map(\.name)
        var records: [InstructionSkillRecord] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let folder = skillsFolder + "/" + name
            let isFolder = SkillFolderWalk.mode(ofType: types[name] ?? 0) == S_IFDIR
                || ((try? Posix.status(ofPath: folder))?.isDirectory ?? false)
            guard isFolder else {
                if (try? Posix.status(ofPath: folder)) == nil {
                    records.append(invalid(name, folder, "\(folder): symlink loop or dangling link; remove it"))
                }
                continue
            }
            let walk = SkillFolderWalk(folder: folder)
            let listed = walk.files.contains("SKILL.md") ? folder + "/SKILL.md" : nil
            guard let file = listed ?? InstructionSkillValidator.skillFile(in: folder) else {
                records.append(invalid(name, folder, (["Missing required file: SKILL.md"] + walk.problems).joined(separator: "; ")))
                continue
            }
            let key: ScanCache.FileKey
            do {
                key = try ScanCache.FileKey(path: file)
            } catch {
                records.append(invalid(name, folder, ([error.message] + walk.problems).joined(separator: "; ")))
                continue
            }
            let entry: InstructionCache.Entry
            if let hit = cached[file], hit.key == key {
                entry = hit
            } else {
                entry = Self.read(file: file, key: key, folderName: name)
                changed = true
            }
            fresh[file] = entry
            var found = record(name: name, folder: folder, entry: entry, walkProblems: walk.problems, registered: registered)
            found.hasScripts = walk.files.contains { $0.hasPrefix("scripts/") }
            found.scripts = registry.scriptPolicy(forSkill: found.id)
            records.append(found)
        }
        return records.map { record in
            var record = record
            record.scope = root.scope
            return record
        }
    }

    /// Reads and checks one `SKILL.md`.
    static func read(file: String, key: ScanCache.FileKey, folderName: String) -> InstructionCache.Entry {
        do {
            let document = try InstructionSkillValidator.read(file)
            let problems = InstructionSkillValidator.validate(frontmatter: document.frontmatter, folderName: folderName)
            let lines = document.body.isEmpty ? 0 : document.body.split(separator: "\n", omittingEmptySubsequences: false).count
            return InstructionCache.Entry(
                key: key, frontmatter: document.frontmatter, problems: problems, bodyLines: lines,
                bodyTokens: (document.body.utf8.count + 3) / 4)
        } catch {
            return InstructionCache.Entry(key: key, frontmatter: nil, problems: [error.message], bodyLines: 0, bodyTokens: 0)
        }
    }

    func record(name: String, folder: String, entry: InstructionCache.Entry, walkProblems: [String],
                registered: RegisteredIDs) -> InstructionSkillRecord
    {
        let problems = (entry.problems + walkProblems).map(Self.oneLine)
        var id = ""
        if let raw = entry.frontmatter?["name"]?.stringValue {
            id = InstructionSkillValidator.normalizedName(raw)
        }
        if id.isEmpty { id = Identifier.normalize(name) }
        let enabled = registered.contains(id) ? registry.pluginEnabled(id) : registry.newPlugins == .enabled
        return InstructionSkillRecord(
            id: id, folder: folder, status: problems.isEmpty ? (enabled ? .ok : .disabled) : .invalid,
            enabled: enabled, error: problems.isEmpty ? nil : problems.joined(separator: "; "),
            frontmatter: entry.frontmatter, bodyLines: entry.bodyLines, bodyTokens: entry.bodyTokens)
    }

    func invalid(_ name: String, _ folder: String, _ reason: String) -> InstructionSkillRecord {
        let id = Identifier.normalize(name)
        return InstructionSkillRecord(
            id: id, folder: folder, status: .invalid, enabled: registry.pluginEnabled(id), error: Self.oneLine(reason))
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// The normalized ids that have an entry in the registry's `plugins`, computed once per listing so that
/// ids without an entry (most skills) skip the registry's normalizing lookup.
struct RegisteredIDs {
    private let ids: Set<String>

    init(_ registry: Registry) {
        let keys = registry.document["plugins"]?.objectValue?.keys ?? []
        ids = Set(keys.map(Identifier.normalize))
    }

    func contains(_ id: String) -> Bool { ids.contains(Identifier.isValid(id) ? id : Identifier.normalize(id)) }
}
