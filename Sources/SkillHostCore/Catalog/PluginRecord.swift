import SkillJSON

/// The state of a plugin file in the catalog (`status` in `list --json`).
public enum PluginStatus: String, Sendable, CaseIterable {
    /// Usable and enabled.
    case ok
    /// Usable but switched off in the registry.
    case disabled
    /// The file or its manifest is wrong (see the record's error).
    case invalid
    /// Loading it crashed or hung the scanner, or its worker crashed repeatedly.
    case broken
    /// Usable and enabled, but a call would be refused before it runs: a trusted file that changed since
    /// `skillhost trust`, an untrusted one under trust policy `required`, or unsafe file permissions.
    case denied
}

/// One plugin file as the catalog sees it.
public struct PluginRecord: Sendable, Equatable {
    /// The manifest's normalized id; for a file without a usable manifest, its normalized file name.
    public var id: String
    /// Absolute path of the file.
    public var path: String
    /// The state.
    public var status: PluginStatus
    /// Whether the registry has it on (independent of `status`).
    public var enabled: Bool
    /// Why it is invalid or broken; nil otherwise.
    public var error: String?
    /// The checked manifest, when the file has one.
    public var manifest: PluginManifest?
    /// Its skills with registry decisions applied (empty without a manifest).
    public var skills: [SkillDescription]
    /// The registry's settings for it (with what the administrator's policy forces laid over them).
    public var settings: PluginSettings
    /// The signature an install kept beside the file, checked against the trusted keys; nil when unsigned.
    public var signature: InstalledSignature.Status? = nil
    /// What the administrator's policy decided about it and its skills, one line each naming the rule.
    public var policyNotes: [String] = []
    /// Why the policy blocks the whole plugin, when it does.
    public var policyBlock: String? = nil
    /// Skills the policy blocks, with the line that says so (a call is refused with it).
    public var policyBlockedSkills: [String: String] = [:]
    /// Skills the policy always asks about (nothing, an `allowed-tools` list included, spares them the question).
    public var policyAskedSkills: Set<String> = []

    /// Whether its skills can be called.
    public var isUsable: Bool { status == .ok }

    /// Creates a record.
    public init(
        id: String, path: String, status: PluginStatus, enabled: Bool, error: String? = nil,
        manifest: PluginManifest? = nil, skills: [SkillDescription] = [], settings: PluginSettings = PluginSettings()
    ) {
        self.id = id
        self.path = path
        self.status = status
        self.enabled = enabled
        self.error = error
        self.manifest = manifest
        self.skills = skills
        self.settings = settings
    }
}
