import SkillJSON

/// One skill as the host offers it: the manifest's description with the registry's decisions applied.
public struct SkillDescription: Sendable, Equatable {
    /// Normalized skill id, `<plugin>.<name>`.
    public var id: String
    /// Short human title.
    public var title: String
    /// What the model reads.
    public var description: String
    /// JSON Schema of the arguments.
    public var parameters: JSONValue
    /// What the skill may do.
    public var permission: Permission
    /// Effective timeout in seconds: registry override, else the manifest's (which defaults to ``SkillDefaults/timeout``).
    public var timeout: Double
    /// Whether repeating a call has no further effect.
    public var idempotent: Bool
    /// Example utterances.
    public var examples: [String]
    /// The manifest's result summary template (`{field}` slots), nil when it gives none.
    public var summary: String?
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

    /// Creates a description.
    public init(
        id: String, title: String, description: String, parameters: JSONValue, permission: Permission,
        timeout: Double, idempotent: Bool, examples: [String], pluginID: String, pluginPath: String,
        enabled: Bool, approval: ApprovalPolicy, rateLimitPerMinute: Int? = nil, summary: String? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.parameters = parameters
        self.permission = permission
        self.timeout = timeout
        self.idempotent = idempotent
        self.examples = examples
        self.summary = summary
        self.pluginID = pluginID
        self.pluginPath = pluginPath
        self.enabled = enabled
        self.approval = approval
        self.rateLimitPerMinute = rateLimitPerMinute
    }
}
