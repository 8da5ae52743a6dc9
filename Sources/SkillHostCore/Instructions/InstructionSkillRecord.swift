import SkillJSON

/// One sub-folder of the skills folder as the catalog sees it (an Agent Skills `SKILL.md` folder).
public struct InstructionSkillRecord: Sendable, Equatable {
    /// The skill's `name` (NFKC-normalized); for a folder without a usable name, its folder name.
    public var id: String
    /// Absolute path of the skill folder.
    public var folder: String
    /// `ok`, `disabled` (switched off in the registry) or `invalid` (see `error`).
    public var status: PluginStatus
    /// Whether the registry has it on (independent of `status`).
    public var enabled: Bool
    /// Why it is invalid, in one line; nil otherwise.
    public var error: String?
    /// The parsed frontmatter; nil when `SKILL.md` could not be read.
    public var frontmatter: JSONObject?
    /// Lines in the Markdown body.
    public var bodyLines: Int
    /// Estimated tokens of the body (about four bytes a token).
    public var bodyTokens: Int
    /// Whether it bundles scripts (files under `scripts/`), which `run_skill_script` runs.
    public var hasScripts: Bool = false
    /// What the registry decides about running its scripts (permission, approval).
    public var scripts: ScriptPolicy = .standard
    /// Whether it comes from the user's skills folder or a trusted project's.
    public var scope: InstructionScope = .user
    /// The folders of skills of the same name it wins over (a project's over the user's; ``ProjectSkills``).
    public var shadows: [String] = []

    /// The frontmatter's description, or "".
    public var description: String { frontmatter?["description"]?.stringValue ?? "" }
    /// Whether the model may be offered it.
    public var isUsable: Bool { status == .ok }

    /// Creates a record.
    public init(
        id: String, folder: String, status: PluginStatus, enabled: Bool, error: String? = nil,
        frontmatter: JSONObject? = nil, bodyLines: Int = 0, bodyTokens: Int = 0
    ) {
        self.id = id
        self.folder = folder
        self.status = status
        self.enabled = enabled
        self.error = error
        self.frontmatter = frontmatter
        self.bodyLines = bodyLines
        self.bodyTokens = bodyTokens
    }

    /// The skill as `list --json` shows it, beside plugins: id, kind, path, status, enabled, error,
    /// description, skills (always empty: an instruction skill is not called, it is read), scripts
    /// (`{"permission", "approval"}` of its bundled scripts, null when it has none), scope (`user` or `project`),
    /// shadows (the folders of same-named skills it wins over).
    public var summaryJSON: JSONValue {
        [
            "id": .string(id), "kind": "instructions", "path": .string(folder), "status": .string(status.rawValue),
            "enabled": .bool(enabled), "error": error.map(JSONValue.string) ?? .null,
            "description": .string(description), "skills": [],
            "scripts": hasScripts ? scripts.json : .null, "scope": .string(scope.rawValue),
            "shadows": .array(shadows.map(JSONValue.string)),
        ]
    }
}
