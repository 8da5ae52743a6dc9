import SkillCheck
import SkillSDK
import Testing

/// A skill's `outputSchema` (default none) is written to the manifest as `output_schema` and checked by the
/// host's checker through `plugin.problems`.
@Suite struct OutputSchemaTests {
    struct Timed: Skill {
        let name = "now"
        let title = "Now"
        let description = "The time."
        let parameters: JSONValue = ["type": "object", "properties": [:], "additionalProperties": false]
        let outputSchema: JSONValue? = ["type": "object", "properties": ["time": ["type": "string"]], "required": ["time"]]

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { ["time": "noon"] }
    }

    struct Plain: Skill {
        let name = "plain"
        let title = "Plain"
        let description = "No output schema."
        let parameters: JSONValue = ["type": "object", "properties": [:], "additionalProperties": false]

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { [:] }
    }

    struct Broken: Skill {
        let name = "broken"
        let title = "Broken"
        let description = "A result schema that is not an object schema."
        let parameters: JSONValue = ["type": "object", "properties": [:], "additionalProperties": false]
        let outputSchema: JSONValue? = ["type": "array", "items": ["type": "strng"]]

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { [:] }
    }

    @Test func declaredSchemaIsInTheManifestAndAbsentByDefault() {
        let plugin = SkillPlugin(id: "clocky", name: "Clocky", version: "1.0.0", description: "Time.", skills: [Timed(), Plain()])
        let skills = plugin.manifest["skills"]?.arrayValue ?? []
        #expect(skills.first?["output_schema"]?["required"] == ["time"])
        #expect(skills.last?["output_schema"] == nil)
        #expect(plugin.problems == [])
    }

    @Test func faultsAreReportedWithTheirPointers() {
        let plugin = SkillPlugin(id: "clocky", name: "Clocky", version: "1.0.0", description: "Time.", skills: [Broken()])
        let problems = plugin.problems.joined(separator: "\n")
        #expect(problems.contains("/skills/0/output_schema/type"), "\(problems)")
        #expect(problems.contains("/skills/0/output_schema/items/type"), "\(problems)")
    }
}
