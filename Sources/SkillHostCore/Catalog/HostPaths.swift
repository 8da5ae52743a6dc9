/// Where the host keeps things (docs/architecture.md, "Paths").
public struct HostPaths: Sendable, Equatable {
    /// The plugins folder, scanned for `*.so`.
    public var plugins: String
    /// The registry file.
    public var registry: String
    /// The scan cache folder.
    public var cache: String
    /// The folder holding one data folder per plugin.
    public var data: String
    /// The skills folder: one Agent Skills (`SKILL.md`) folder per sub-folder.
    public var skills: String
    /// The administrator's policy files (``AdminPolicy``): `/etc/skillhost/policy.json` and `SKILLHOST_POLICY`'s.
    public var policyFiles: [String]
    /// The project folder (the working folder of a CLI command) whose `.agents/skills/` and `.claude/skills/`
    /// are loaded once the user trusts it (`skillhost trust --folder`); nil: none (a library's default).
    public var project: String? = nil

    /// The project's skills folders, in the order they win a name collision (docs/instruction-skills.md,
    /// "Project skills"): the cross-client `.agents/skills/` first, then `.claude/skills/`.
    public var projectSkillFolders: [String] {
        guard let project else { return [] }
        return ProjectSkills.folderNames.map { project + "/" + $0 }
    }

    /// Paths as given (relative ones are made absolute against the working directory).
    /// Without `skills`, the skills folder is `skills` beside the plugins folder; without `policyFiles`,
    /// those of this process's environment.
    public init(
        plugins: String, registry: String, cache: String, data: String, skills: String? = nil, policyFiles: [String]? = nil
    ) {
        self.policyFiles = policyFiles ?? AdminPolicy.files(environment: Posix.environment())
        self.skills = Posix.absolutePath(skills ?? Posix.directoryName(of: Posix.absolutePath(plugins)) + "/skills")
        self.plugins = Posix.absolutePath(plugins)
        self.registry = Posix.absolutePath(registry)
        self.cache = Posix.absolutePath(cache)
        self.data = Posix.absolutePath(data)
    }

    /// Paths from flags, then `SKILLHOST_PLUGINS` / `SKILLHOST_REGISTRY` / `SKILLHOST_CACHE`, then the XDG
    /// defaults (`$XDG_DATA_HOME/skillhost/plugins`, `$XDG_CONFIG_HOME/skillhost/skill_registry.json`,
    /// `$XDG_CACHE_HOME/skillhost`; data in `$XDG_DATA_HOME/skillhost/data`).
    public static func resolve(
        plugins: String? = nil, registry: String? = nil, cache: String? = nil, skills: String? = nil,
        project: String? = nil, environment: [String: String]
    ) -> HostPaths {
        func nonEmpty(_ key: String) -> String? {
            guard let value = environment[key], !value.isEmpty else { return nil }
            return value
        }
        let home = nonEmpty("HOME") ?? "/tmp"
        let dataHome = nonEmpty("XDG_DATA_HOME") ?? home + "/.local/share"
        let configHome = nonEmpty("XDG_CONFIG_HOME") ?? home + "/.config"
        let cacheHome = nonEmpty("XDG_CACHE_HOME") ?? home + "/.cache"
        var paths = HostPaths(
            plugins: plugins ?? nonEmpty("SKILLHOST_PLUGINS") ?? dataHome + "/skillhost/plugins",
            registry: registry ?? nonEmpty("SKILLHOST_REGISTRY") ?? configHome + "/skillhost/skill_registry.json",
            cache: cache ?? nonEmpty("SKILLHOST_CACHE") ?? cacheHome + "/skillhost",
            data: dataHome + "/skillhost/data",
            skills: skills ?? nonEmpty("SKILLHOST_SKILLS") ?? dataHome + "/skillhost/skills",
            policyFiles: AdminPolicy.files(environment: environment))
        paths.project = project.map(Posix.absolutePath)
        return paths
    }

    /// The data folder of one plugin.
    public func dataDirectory(forPlugin pluginID: String) -> String {
        data + "/" + Identifier.normalize(pluginID)
    }
}
