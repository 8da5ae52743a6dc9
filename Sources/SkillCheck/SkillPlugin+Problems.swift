import ManifestCheck
import SkillSDK

extension SkillPlugin {
    /// Every authoring mistake in this plugin, one line each: what `skillhost validate` would report for
    /// its manifest (the host's own checker: ids, semver, schemas with every fault, `required` names,
    /// example slots, and advice such as `"additionalProperties": false`), plus members that compile but
    /// are silently ignored, such as `let timeout = 2` (an `Int`; the protocol wants a `Double`, so the
    /// default 30 applies). Empty when there are none. Call it from a test of your plugin:
    /// ```swift
    /// import SkillCheck
    /// @Test func manifestIsClean() { #expect(myPlugin.problems == []) }
    /// ```
    public var problems: [String] {
        SkillPlugin.problems(inManifest: manifest) + skills.flatMap(SkillPlugin.ignoredMembers)
    }

    /// Every problem and piece of advice the host's checker finds in any manifest document, C plugins'
    /// too, one line each (`manifest /skills/0/examples/1 (skill clock.now): example …`).
    public static func problems(inManifest manifest: JSONValue) -> [String] {
        let report = ManifestValidator.check(manifest)
        return (report.problems + report.advice).map(\.description)
    }

    /// Stored members named like a `Skill` requirement but of another type, which Swift accepts as
    /// unrelated properties while the protocol's default is used instead.
    static func ignoredMembers(of skill: any Skill) -> [String] {
        let expected: [String: (type: String, fix: String)] = [
            "timeout": ("Double", "let timeout: Double = …"),
            "summary": ("Optional<String>", "let summary: String? = \"…\""),
            "examples": ("Array<String>", "let examples: [String] = […]"),
            "isIdempotent": ("Bool", "let isIdempotent: Bool = …"),
            "permission": ("Permission", "let permission: SkillPermission = .write"),
            "title": ("String", "let title: String = \"…\""),
            "description": ("String", "let description: String = \"…\""),
            "name": ("String", "let name: String = \"…\""),
        ]
        var lines: [String] = []
        for child in Mirror(reflecting: skill).children {
            guard let label = child.label, let wanted = expected[label] else { continue }
            let actual = String(describing: type(of: child.value))
            if actual != wanted.type, !actual.hasSuffix("." + wanted.type) {
                lines.append("skill \(type(of: skill)): member \"\(label)\" is \(actual), not \(wanted.type), so Skill's default is used instead; write `\(wanted.fix)`")
            }
        }
        return lines
    }
}
