import SkillJSON

extension SkillPlugin {
    /// Authoring mistakes the host would reject or that make a skill hard for a model to use, one line each,
    /// e.g. `clock.now: example "time in {zone}" names "zone", which is not a parameter`. Empty when none.
    ///
    /// Checks ids, duplicate names, that parameters are a closed object schema whose `required` members
    /// exist, timeouts, and that every example's `{slot}` is a parameter and every example fills every
    /// required parameter. Call it from a test of your plugin.
    public var problems: [String] {
        var problems: [String] = []
        if !SkillPlugin.isNormalizedID(id) {
            problems.append("plugin id \"\(id)\" is not normalized: use dot-separated segments of [a-z0-9_-]")
        }
        if !SkillPlugin.isSemanticVersion(version) {
            problems.append("plugin \(id): version \"\(version)\" is not semver MAJOR.MINOR.PATCH, e.g. \"1.0.0\"")
        }
        var seen: Set<String> = []
        for skill in skills {
            let skillID = skillID(of: skill)
            if !seen.insert(skillID).inserted { problems.append("\(skillID): two skills have this id; rename one") }
            if !SkillPlugin.isNormalizedID(skill.name) {
                problems.append("\(skillID): name \"\(skill.name)\" is not normalized: use [a-z0-9_-] segments")
            }
            if !(skill.timeout > 0) { problems.append("\(skillID): timeout must be more than 0 seconds") }
            problems += SkillPlugin.schemaProblems(skill.parameters, skillID: skillID)
            problems += SkillPlugin.exampleProblems(skill, skillID: skillID)
        }
        return problems
    }

    private static func schemaProblems(_ schema: JSONValue, skillID: String) -> [String] {
        guard schema["type"]?.stringValue == "object", let properties = schema["properties"]?.objectValue else {
            return ["\(skillID): parameters must be an object schema with \"properties\""]
        }
        var problems: [String] = []
        if schema["additionalProperties"] != false {
            problems.append("\(skillID): parameters should set \"additionalProperties\": false so typos are rejected")
        }
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where properties[name] == nil {
            problems.append("\(skillID): required parameter \"\(name)\" is not in \"properties\"")
        }
        return problems
    }

    private static func exampleProblems(_ skill: any Skill, skillID: String) -> [String] {
        let properties = skill.parameters["properties"]?.objectValue ?? [:]
        let required = skill.parameters["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var problems: [String] = []
        for example in skill.examples {
            let slots = slotNames(in: example)
            for slot in slots where properties[slot] == nil {
                problems.append("\(skillID): example \"\(example)\" names \"\(slot)\", which is not a parameter")
            }
            for name in required where !slots.contains(name) {
                problems.append("\(skillID): example \"\(example)\" does not fill required parameter \"{\(name)}\"")
            }
        }
        return problems
    }

    /// The `{name}` slots of an example, in order.
    static func slotNames(in example: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in example {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                names.append(name)
                current = nil
            } else if current != nil {
                current!.append(character)
            }
        }
        return names
    }

    static func isNormalizedID(_ id: String) -> Bool {
        let segments = id.split(separator: ".", omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            !segment.isEmpty
                && segment.utf8.allSatisfy { byte in
                    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D
                }
        }
    }

    static func isSemanticVersion(_ version: String) -> Bool {
        let core = version.split(separator: "-", maxSplits: 1).first.map { $0.split(separator: "+").first ?? $0 } ?? ""
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && UInt64($0) != nil }
    }
}
