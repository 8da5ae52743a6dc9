import SkillHostCore
import SkillJSON

/// One enabled skill as the agent offers it to a model: what it does, its parameter schema and the
/// facts the loop needs to run it (permission, timeout, example utterances).
public struct AgentTool: Sendable, Equatable {
    /// How much a skill may change (the manifest's `permission`): `write` and `dangerous` skills need the
    /// user's approval. The host's type, so no conversion can lose or widen a permission.
    public typealias Permission = SkillHostCore.Permission

    /// The normalized skill id, e.g. `clock.now`.
    public var skillID: String
    /// A short human title, e.g. "Current time".
    public var title: String
    /// What the model reads to decide when to call it.
    public var description: String
    /// The JSON Schema of the arguments (an object schema).
    public var parameters: JSONValue
    /// What the skill may change.
    public var permission: Permission
    /// Seconds a call may take (manifest default or registry override).
    public var timeout: Double
    /// Whether repeating a call has no further effect.
    public var idempotent: Bool
    /// Example utterances with `{parameter}` slots, e.g. `what time is it in {timezone}`.
    public var examples: [String]
    /// The manifest's result summary template, e.g. `It is {time} on {weekday}.` (see ``ResultSummaryTemplate``).
    public var summary: String?

    /// A tool with these facts.
    public init(
        skillID: String, title: String = "", description: String, parameters: JSONValue = ["type": "object"],
        permission: Permission = .read, timeout: Double = SkillDefaults.timeout, idempotent: Bool = false, examples: [String] = [],
        summary: String? = nil
    ) {
        self.skillID = skillID
        self.title = title
        self.description = description
        self.parameters = parameters
        self.permission = permission
        self.timeout = timeout
        self.idempotent = idempotent
        self.examples = examples
        self.summary = summary
    }
}
