import SkillJSON

extension SandboxPolicy {
    /// What a plugin may do once the registry had its say: the manifest's capabilities, narrowed by registry
    /// `capabilities`, plus what the user granted (`skillhost grant`). Environment variables are the
    /// exception: declaring one only asks for it; a worker gets it once the user granted it.
    public static func effectiveCapabilities(declared: PluginCapabilities, settings: PluginSettings) -> PluginCapabilities {
        var narrowed = settings.capabilityLimit.map(declared.intersection) ?? declared
        narrowed.environment = []
        return narrowed.adding(settings.grants)
    }

    /// The sandbox a plugin's workers enter, or nil when its registry `sandbox` is `off` (or it has no
    /// manifest yet).
    /// - Parameters:
    ///   - plugin: the plugin with its manifest and registry settings.
    ///   - paths: the host's folders (the data folder comes from here).
    ///   - home: the user's home folder (`home` roots and `~/` in configuration paths).
    public static func resolve(plugin: PluginRecord, paths: HostPaths, home: String?) -> SandboxPolicy? {
        let mode = plugin.settings.sandbox ?? .automatic
        guard mode != .off, let manifest = plugin.manifest else { return nil }
        return resolve(
            capabilities: effectiveCapabilities(declared: manifest.capabilities, settings: plugin.settings),
            mode: mode, dataDirectory: paths.dataDirectory(forPlugin: plugin.id),
            configuration: plugin.settings.configuration, home: home)
    }

    /// The sandbox for explicit capabilities (what ``resolve(plugin:paths:home:)`` does after the registry).
    /// Paths that cannot be resolved (a configuration key not set, no home folder) grant nothing.
    public static func resolve(
        capabilities: PluginCapabilities, mode: SandboxMode, dataDirectory: String, configuration: JSONValue,
        home: String?
    ) -> SandboxPolicy {
        var rules = [Rule(path: dataDirectory, access: .readWrite)]
        for grant in capabilities.filesystem {
            switch grant.root {
            case .data:
                continue
            case .home:
                guard let home, let path = grant.path else { continue }
                rules.append(Rule(path: home + "/" + path, access: grant.access))
            case .config:
                guard let key = grant.key, var path = configuration[key]?.stringValue, !path.isEmpty else { continue }
                if path.hasPrefix("~/"), let home { path = home + path.dropFirst(1) }
                guard path.hasPrefix("/") else { continue }
                rules.append(Rule(path: writablePath(path, access: grant.access, home: home), access: grant.access))
            }
        }
        return SandboxPolicy(mode: mode, rules: rules, network: capabilities.network, processes: capabilities.processes)
    }

    /// Where a configured path's rule goes. A read-write file (existing or not yet created) is granted through
    /// its folder: a safe write makes a temporary file beside it and renames it over the file (temp + fsync +
    /// rename), and a file that does not exist yet has no inode to attach a rule to. So point such a setting
    /// at a file in a folder of its own (docs/isolation.md, "Sandbox"); a file directly in the home folder or
    /// in `/` is granted alone, never the whole folder. Folders and read-only paths are granted as they are.
    static func writablePath(_ path: String, access: PluginCapabilities.Access, home: String?) -> String {
        guard access == .readWrite, (try? Posix.status(ofPath: path))?.isDirectory != true else { return path }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !parent.isEmpty, parent != home else { return path }
        return parent
    }

    /// Creates the folders of read-write rules that do not exist yet (a configured file's folder, the data
    /// folder), so a sandboxed plugin, which cannot create them, can write there. Run by the host just
    /// before it starts a worker, never while resolving.
    public func createMissingWritableFolders() {
        for rule in rules where rule.access == .readWrite && !Posix.exists(rule.path) {
            try? Posix.makeDirectories(rule.path)
        }
    }
}
