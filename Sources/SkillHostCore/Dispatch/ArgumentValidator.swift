import SkillJSON

/// Validates call arguments against a skill's `parameters` schema before any plugin code runs.
final class ArgumentValidator: Sendable {
    init() {}

    /// - Throws: ``HostError`` `invalidArguments` listing every error with its JSON pointer, on one line.
    func validate(_ arguments: JSONValue, for skill: SkillDescription) throws(HostError) {
        guard case .object = arguments else {
            throw HostError(.invalidArguments,
                "skill \(skill.id): arguments must be a JSON object, got \(arguments.typeName); e.g. '{}'",
                skillID: skill.id, pluginID: skill.pluginID)
        }
    }
}
