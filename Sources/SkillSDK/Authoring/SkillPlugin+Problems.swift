import SkillJSON

extension SkillPlugin {
    /// Authoring mistakes in this plugin's manifest; see ``problems(inManifest:)``. Empty when none.
    public var problems: [String] { SkillPlugin.problems(inManifest: manifest) }

    /// Authoring mistakes the host would reject, or that make a skill hard for a model to use, one line
    /// each, e.g. `clock.now: example "time in {zone}" names "zone", which is not a parameter`.
    ///
    /// Checks normalized ids (skill ids prefixed by the plugin id, no duplicates), a semver `version`, an
    /// `abi_version`, titles and descriptions, a positive `timeout`, a known `permission`, that `parameters`
    /// is a closed object schema whose `required` members exist, and that each example's `{slot}` is a
    /// parameter and each example fills every required parameter. Works on any plugin's manifest, C ones too:
    /// call it from a test of your plugin.
    public static func problems(inManifest manifest: JSONValue) -> [String] {
        let pluginID = manifest["id"]?.stringValue ?? ""
        var problems: [String] = []
        if !isNormalizedID(pluginID) {
            problems.append("plugin id \"\(pluginID)\" is not normalized: use dot-separated segments of [a-z0-9_-]")
        }
        let version = manifest["version"]?.stringValue ?? ""
        if !isSemanticVersion(version) {
            problems.append(
                "plugin \(pluginID): version \"\(version)\" is not semver MAJOR.MINOR.PATCH, e.g. \"1.0.0\"")
        }
        if manifest["abi_version"]?.stringValue?.split(separator: ".").count != 2 {
            problems.append("plugin \(pluginID): abi_version must be \"MAJOR.MINOR\", e.g. \"1.0\"")
        }
        for field in ["name", "description"] where (manifest[field]?.stringValue ?? "").isEmpty {
            problems.append("plugin \(pluginID): \"\(field)\" is missing or empty")
        }
        var seen: Set<String> = []
        for skill in manifest["skills"]?.arrayValue ?? [] {
            let skillID = skill["id"]?.stringValue ?? "?"
            if !seen.insert(skillID).inserted { problems.append("\(skillID): two skills have this id; rename one") }
            if !skillID.hasPrefix(pluginID + ".") || !isNormalizedID(skillID) {
                problems.append("\(skillID): a skill id is \"\(pluginID).<name>\" with [a-z0-9_-] segments")
            }
            for field in ["title", "description"] where (skill[field]?.stringValue ?? "").isEmpty {
                problems.append("\(skillID): \"\(field)\" is missing or empty")
            }
            if let timeout = skill["timeout"], !(timeout.doubleValue.map { $0 > 0 } ?? false) {
                problems.append("\(skillID): timeout must be a number of seconds more than 0")
            }
            if let permission = skill["permission"]?.stringValue, SkillPermission(rawValue: permission) == nil {
                problems.append("\(skillID): permission \"\(permission)\" is not read, write or dangerous")
            }
            problems += schemaProblems(skill["parameters"] ?? .null, skillID: skillID)
            problems += exampleProblems(skill, skillID: skillID)
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

    private static func exampleProblems(_ skill: JSONValue, skillID: String) -> [String] {
        let properties = skill["parameters"]?["properties"]?.objectValue ?? [:]
        let required = skill["parameters"]?["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var problems: [String] = []
        for example in skill["examples"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
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
