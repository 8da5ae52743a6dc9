import SkillJSON

/// Where a plugin's skills run (registry `isolation`).
public enum IsolationMode: String, Sendable, CaseIterable {
    /// In a worker process (the default): crashes and hangs cannot take the host down.
    case process
    /// In the host process: fastest; timeouts are cooperative only.
    case inprocess
}

/// Whether a call needs the user's approval (registry `approval` of a skill).
public enum ApprovalPolicy: String, Sendable, CaseIterable {
    /// Ask the user (the default for `write` and `dangerous` skills).
    case ask
    /// Run without asking.
    case allow
    /// Refuse without asking.
    case deny
}

/// The state of plugins that have no registry entry yet (registry `new_plugins`).
public enum NewPluginState: String, Sendable, CaseIterable {
    case enabled
    case disabled
}

/// A plugin's effective settings: its registry entry laid over `defaults`.
public struct PluginSettings: Sendable, Equatable {
    /// The entry's `enabled`, nil when the entry does not say (then `new_plugins` decides).
    public var enabled: Bool?
    /// Where its skills run.
    public var isolation: IsolationMode
    /// The SHA-256 recorded by `skillhost trust`, lowercase hex; nil when untrusted.
    public var sha256: String?
    /// Worker resource limits.
    public var limits: ResourceLimits
    /// At most this many worker processes at once.
    public var maxWorkers: Int
    /// The plugin's configuration object (`{}` when none), handed to every call.
    public var configuration: JSONValue
    /// Registry `sandbox`; nil = ``SandboxMode/automatic``.
    public var sandbox: SandboxMode? = nil
    /// Registry `capabilities`: narrows the manifest's (never widens); nil = the manifest's as declared.
    public var capabilityLimit: PluginCapabilities? = nil
    /// Registry `grants`: capabilities the user granted beyond the manifest (`skillhost grant`).
    public var grants: [Capability] = []

    /// The environment variables the user granted (`env:NAME` among ``grants``): a worker gets these, and
    /// only these, of the host's environment.
    public var grantedEnvironment: [String] {
        grants.compactMap { if case .environment(let name) = $0 { name } else { nil } }
    }

    /// Creates settings; the defaults are those of a registry without entries.
    public init(
        enabled: Bool? = nil, isolation: IsolationMode = .process, sha256: String? = nil,
        limits: ResourceLimits = .defaults, maxWorkers: Int = 2, configuration: JSONValue = [:]
    ) {
        self.enabled = enabled
        self.isolation = isolation
        self.sha256 = sha256
        self.limits = limits
        self.maxWorkers = maxWorkers
        self.configuration = configuration
    }
}

/// A skill's registry entry; nil members mean "not set" (follow the plugin / the manifest).
public struct SkillSettings: Sendable, Equatable {
    /// Explicitly enabled or disabled.
    public var enabled: Bool?
    /// Timeout override in seconds.
    public var timeout: Double?
    /// Approval policy override.
    public var approval: ApprovalPolicy?
    /// Calls per minute allowed; nil for no limit.
    public var rateLimitPerMinute: Int?

    /// Creates an entry; nil members are not set.
    public init(enabled: Bool? = nil, timeout: Double? = nil, approval: ApprovalPolicy? = nil, rateLimitPerMinute: Int? = nil) {
        self.enabled = enabled
        self.timeout = timeout
        self.approval = approval
        self.rateLimitPerMinute = rateLimitPerMinute
    }
}

extension Registry {
    /// Where a skill's setting lives in the registry, as remedies name it: `plugins.P.skills.S.KEY` (`KEY`
    /// nil: the skill's entry itself). The one spelling of that path.
    public static func settingPath(pluginID: String, skillID: String, key: String? = nil) -> String {
        "plugins.\(pluginID).skills.\(skillID)" + (key.map { "." + $0 } ?? "")
    }
}
