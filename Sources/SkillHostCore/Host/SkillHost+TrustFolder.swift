extension SkillHost {
    /// What `trust --folder` changed: the folder (absolute, links resolved), whether it is trusted now and was
    /// before, and the project skills folders it holds.
    public struct FolderTrustChange: Sendable, Equatable {
        public var folder: String
        public var trusted: Bool
        public var wasTrusted: Bool
        /// Its `.agents/skills` and `.claude/skills` that hold skill folders.
        public var skillFolders: [String]
    }

    /// Trusts the project folder at `path` (or with `revoke` stops trusting it): registry `trusted_folders`,
    /// written atomically under the registry lock. While it is trusted, a command run in it loads its
    /// `.agents/skills/` and `.claude/skills/` (``ProjectSkills``).
    /// - Throws: ``HostError``: `notFound` when `path` is not a folder, `registry` for a malformed registry.
    @discardableResult
    public func trustFolder(_ path: String, revoke: Bool = false) throws(HostError) -> FolderTrustChange {
        let absolute = Posix.absolutePath(path)
        guard let folder = Posix.resolvedPath(absolute), (try? Posix.status(ofPath: folder))?.isDirectory == true else {
            throw HostError(.notFound, "\(absolute) is not a folder; give the project folder that holds .agents/skills or .claude/skills (e.g. 'skillhost trust --folder .')")
        }
        var change = FolderTrustChange(
            folder: folder, trusted: !revoke, wasTrusted: false,
            skillFolders: ProjectSkills.folderNames.map { folder + "/" + $0 }.filter(ProjectSkills.holdsSkills))
        try registryStore.update { registry in
            change.wasTrusted = registry.trustsFolder(folder)
            registry.setFolderTrusted(folder, !revoke)
        }
        return change
    }
}
