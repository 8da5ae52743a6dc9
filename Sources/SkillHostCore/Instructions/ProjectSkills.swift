/// Where instruction skills come from, and which wins a name collision (the Agent Skills client guide):
/// a trusted project's skills (`.agents/skills/`, then `.claude/skills/` of the working folder) before the
/// user's skills folder. An untrusted project's skills are not loaded at all: `skillhost trust --folder
/// PATH` trusts it (registry `trusted_folders`).
public enum InstructionScope: String, Sendable, Equatable {
    /// The user's skills folder (`--skills`, `SKILLHOST_SKILLS`).
    case user
    /// A trusted project's `.agents/skills/` or `.claude/skills/`.
    case project
}

/// One folder of skill folders the catalog lists.
struct InstructionRoot: Equatable {
    var folder: String
    var scope: InstructionScope
}

/// The project skills of a working folder: where they are, whether they load, and collisions.
public enum ProjectSkills {
    /// The project's skills folders, relative to it, in the order they win: the cross-client convention
    /// first, then Claude's.
    public static let folderNames = [".agents/skills", ".claude/skills"]

    /// The folders the catalog lists, in the order they win a collision, and the project folder when it
    /// holds skills but is not trusted (nil otherwise).
    static func roots(_ paths: HostPaths, registry: Registry) -> (roots: [InstructionRoot], untrusted: String?) {
        let user = InstructionRoot(folder: paths.skills, scope: .user)
        guard let project = paths.project else { return ([user], nil) }
        let folders = paths.projectSkillFolders.filter(holdsSkills)
        guard !folders.isEmpty else { return ([user], nil) }
        guard registry.trustsFolder(Posix.resolvedPath(project) ?? project) else { return ([user], project) }
        return (folders.map { InstructionRoot(folder: $0, scope: .project) } + [user], nil)
    }

    /// Whether `folder` exists and holds a non-hidden entry.
    static func holdsSkills(_ folder: String) -> Bool {
        Posix.directoryEntries(folder)?.contains { !$0.hasPrefix(".") } ?? false
    }

    /// Keeps, of the records that share an id across roots, the one of the first root (`roots` order) and
    /// notes on it the folders it shadows; records of one root that share an id are left to the id clash
    /// rule (both invalid).
    static func resolveCollisions(_ records: [InstructionSkillRecord], roots: [InstructionRoot]) -> [InstructionSkillRecord] {
        func rank(_ record: InstructionSkillRecord) -> Int {
            roots.firstIndex { record.folder.hasPrefix($0.folder + "/") } ?? roots.count
        }
        var winners: [String: (rank: Int, index: Int)] = [:]
        for (index, record) in records.enumerated() where record.frontmatter != nil {
            let rank = rank(record)
            if let best = winners[record.id], best.rank <= rank { continue }
            winners[record.id] = (rank, index)
        }
        var kept: [InstructionSkillRecord] = []
        var shadowed: [Int: [String]] = [:]
        for (index, record) in records.enumerated() {
            if record.frontmatter != nil, let winner = winners[record.id], winner.index != index, rank(record) != winner.rank {
                shadowed[winner.index, default: []].append(record.folder)
                continue
            }
            kept.append(record)
        }
        return kept.map { record in
            guard let index = records.firstIndex(where: { $0.folder == record.folder }), let folders = shadowed[index] else { return record }
            var record = record
            record.shadows = folders
            return record
        }
    }

    /// The one-line warnings of a record that shadows others, one per skill it wins over (none when it
    /// shadows none).
    public static func collisionWarnings(_ record: InstructionSkillRecord) -> [String] {
        record.shadows.map { other in
            "instruction skill \"\(record.id)\": \(record.folder) wins over \(other) (a trusted project's skills win over your "
                + "skills folder's, and .agents/skills over .claude/skills); rename one to keep both"
        }
    }

    /// The one-line note of a project folder whose skills are not loaded because it is not trusted.
    public static func untrustedNote(_ project: String) -> String {
        "the project skills in \(project) (\(folderNames.joined(separator: ", "))) are not loaded: the folder is not trusted; "
            + "after reading them, run 'skillhost trust --folder \(project)' to load them"
    }
}
