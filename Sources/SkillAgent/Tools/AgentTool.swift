import SkillHostCore
import SkillJSON

/// One enabled skill as the agent offers it to a model: the skill as its manifest declares it (``skill``,
/// the host's one type that describes a skill, with the effective timeout), seen through the names the loop
/// uses.
public struct AgentTool: Sendable, Equatable {
    /// How much a skill may change (the manifest's `permission`): `write` and `dangerous` skills need the
    /// user's approval. The host's type, so no conversion can lose or widen a permission.
    public typealias Permission = SkillHostCore.Permission

    /// The skill: id, title, description, parameter schema, permission, timeout, examples, summary.
    public var skill: SkillManifest

    /// A tool for `skill`.
    public init(skill: SkillManifest) { self.skill = skill }

    /// A tool with these facts.
    public init(
        skillID: String, title: String = "", description: String, parameters: JSONValue = ["type": "object"],
        permission: Permission = .read, timeout: Double = SkillDefaults.timeout, idempotent: Bool = false, examples: [String] = [],
        summary: String? = nil
    ) {
        self.init(skill: SkillManifest(
            id: skillID, title: title, description: description, parameters: parameters, permission: permission,
            timeout: timeout, idempotent: idempotent, examples: examples, summary: summary))
    }

    /// The canonical skill id, e.g. `clock.now`.
    public var skillID: String {
        get { skill.id }
        set { skill.id = newValue }
    }
    /// A short human title, e.g. "Current time".
    public var title: String {
        get { skill.title }
        set { skill.title = newValue }
    }
    /// What the model reads to decide when to call it.
    public var description: String {
        get { skill.description }
        set { skill.description = newValue }
    }
    /// The JSON Schema of the arguments (an object schema).
    public var parameters: JSONValue {
        get { skill.parameters }
        set { skill.parameters = newValue }
    }
    /// What the skill may change.
    public var permission: Permission {
        get { skill.permission }
        set { skill.permission = newValue }
    }
    /// Seconds a call may take (manifest default or registry override).
    public var timeout: Double {
        get { skill.timeout }
        set { skill.timeout = newValue }
    }
    /// Whether repeating a call has no further effect.
    public var idempotent: Bool {
        get { skill.idempotent }
        set { skill.idempotent = newValue }
    }
    /// Example utterances with `{parameter}` slots, e.g. `what time is it in {timezone}`.
    public var examples: [String] {
        get { skill.examples }
        set { skill.examples = newValue }
    }
    /// The manifest's result summary template, e.g. `It is {time} on {weekday}.` (see ``ResultSummaryTemplate``).
    public var summary: String? {
        get { skill.summary }
        set { skill.summary = newValue }
    }
}
