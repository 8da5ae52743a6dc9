import SkillJSON

/// A call that passed every check that needs nobody (the skill found, usable and enabled, the gates, the
/// arguments valid against its schema) and waits to run: ``SkillHost/prepare(skillID:arguments:)`` makes
/// it, whoever asks for approval looks at ``needsApproval``, and ``SkillHost/execute(_:options:)`` runs it,
/// starting the skill's clock (``CallDeadline``) only then.
public struct PreparedCall: Sendable {
    /// The skill as the catalog offers it (registry decisions included).
    public let skill: SkillDescription
    /// The validated arguments (a JSON object).
    public let arguments: JSONValue
    /// What the catalog found for it (nil for a call that did not come from a host's catalog).
    let route: SkillRoute?

    /// A call of a skill that comes from elsewhere than a host's catalog (built-in tools, tests); its
    /// arguments must already be valid.
    public init(skill: SkillDescription, arguments: JSONValue) {
        self.init(skill: skill, arguments: arguments, route: nil)
    }

    init(skill: SkillDescription, arguments: JSONValue, route: SkillRoute?) {
        self.skill = skill
        self.arguments = arguments
        self.route = route
    }

    /// Whether someone must allow the call before it runs (the registry's `approval` is `ask`: the default
    /// for `write` and `dangerous` skills). A `deny` was refused by ``SkillHost/prepare(skillID:arguments:)``.
    public var needsApproval: Bool { skill.approval == .ask }
}
