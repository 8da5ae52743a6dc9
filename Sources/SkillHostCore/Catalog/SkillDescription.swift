import SkillJSON

/// One skill as the host offers it: the skill as its manifest declares it (``manifest``, the one type that
/// describes a skill) and, beside it, the registry's decisions (enabled, approval, timeout override, rate
/// limit) and where it comes from.
@dynamicMemberLookup
public struct SkillDescription: Sendable, Equatable {
    /// The skill as its plugin's manifest declares it.
    public var manifest: SkillManifest
    /// The registry's timeout for it, in seconds; nil keeps the manifest's.
    public var timeoutOverride: Double?
    /// The plugin's id.
    public var pluginID: String
    /// The plugin file.
    public var pluginPath: String
    /// Whether the skill may be offered and called (plugin usable and enabled, skill not disabled).
    public var enabled: Bool
    /// Whether calls need approval: registry override, else `ask` for write/dangerous and `allow` for read.
    public var approval: ApprovalPolicy
    /// Calls per minute allowed (registry), nil for no limit.
    public var rateLimitPerMinute: Int?
    /// Which part of the registry holds its settings: a plugin's (``pluginID`` is the plugin) or an MCP
    /// server's (``pluginID`` is the server's name).
    public var settingsOwner: SettingsOwner = .plugin

    /// The registry's sections that hold skills' settings.
    public enum SettingsOwner: Sendable, Hashable {
        /// `plugins.P.skills.S`.
        case plugin
        /// `mcp_servers.N.tools.S`.
        case mcpServer
    }

    /// Where this skill's setting `key` lives in the registry (nil: its entry), as remedies name it.
    public func settingPath(_ key: String? = nil) -> String {
        switch settingsOwner {
        case .plugin: Registry.settingPath(pluginID: pluginID, skillID: manifest.id, key: key)
        case .mcpServer: Registry.mcpToolSettingPath(server: pluginID, skillID: manifest.id, key: key)
        }
    }

    /// A skill from its manifest entry and the registry's decisions.
    public init(
        manifest: SkillManifest, timeoutOverride: Double? = nil, pluginID: String, pluginPath: String, enabled: Bool,
        approval: ApprovalPolicy, rateLimitPerMinute: Int? = nil
    ) {
        self.manifest = manifest
        self.timeoutOverride = timeoutOverride
        self.pluginID = pluginID
        self.pluginPath = pluginPath
        self.enabled = enabled
        self.approval = approval
        self.rateLimitPerMinute = rateLimitPerMinute
    }

    /// A skill from its parts (the manifest entry is made from them; `timeout` is the effective one).
    public init(
        id: String, title: String, description: String, parameters: JSONValue, permission: Permission,
        timeout: Double, idempotent: Bool, examples: [String], pluginID: String, pluginPath: String,
        enabled: Bool, approval: ApprovalPolicy, rateLimitPerMinute: Int? = nil, summary: String? = nil
    ) {
        self.init(
            manifest: SkillManifest(
                id: id, title: title, description: description, parameters: parameters, permission: permission,
                timeout: timeout, idempotent: idempotent, examples: examples, summary: summary),
            pluginID: pluginID, pluginPath: pluginPath, enabled: enabled, approval: approval,
            rateLimitPerMinute: rateLimitPerMinute)
    }

    /// The manifest's facts, read and written through the skill (`skill.id`, `skill.title`, `skill.permission`,
    /// …): ``SkillManifest`` is the one type that describes a skill, so they are not restated here.
    @inlinable
    public subscript<Value>(dynamicMember path: WritableKeyPath<SkillManifest, Value>) -> Value {
        get { manifest[keyPath: path] }
        set { manifest[keyPath: path] = newValue }
    }

    /// Effective timeout in seconds: the registry's override, else the manifest's (which defaults to
    /// ``SkillDefaults/timeout``).
    public var timeout: Double {
        get { timeoutOverride ?? manifest.timeout }
        set { timeoutOverride = newValue }
    }
}
