import SkillJSON
import SkillSDK
import Testing

@Suite struct ProblemsTests {
    struct Sloppy: Skill {
        var name = "Make Event"
        let title = ""
        let description = "Creates an event."
        let parameters: JSONValue = [
            "type": "object", "properties": ["title": ["type": "string"]], "required": ["title", "when"],
        ]
        let timeout = 0.0
        let examples = ["add {title} on {day}", "new event"]

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { arguments }
    }

    @Test func testSkillsHaveNoProblems() {
        #expect(TestSkills.plugin.problems == [])
    }

    @Test func eachMistakeIsReportedOnItsOwnLine() {
        let plugin = SkillPlugin(
            id: "Cal", name: "Cal", version: "1.0", description: "Calendar.", skills: [Sloppy(), Sloppy()])
        #expect(
            plugin.problems == [
                "plugin id \"Cal\" is not normalized: use dot-separated segments of [a-z0-9_-]",
                "plugin Cal: version \"1.0\" is not semver MAJOR.MINOR.PATCH, e.g. \"1.0.0\"",
                "Cal.Make Event: a skill id is \"Cal.<name>\" with [a-z0-9_-] segments",
                "Cal.Make Event: \"title\" is missing or empty",
                "Cal.Make Event: timeout must be a number of seconds more than 0",
                "Cal.Make Event: parameters should set \"additionalProperties\": false so typos are rejected",
                "Cal.Make Event: required parameter \"when\" is not in \"properties\"",
                "Cal.Make Event: example \"add {title} on {day}\" names \"day\", which is not a parameter",
                "Cal.Make Event: example \"add {title} on {day}\" does not fill required parameter \"{when}\"",
                "Cal.Make Event: example \"new event\" does not fill required parameter \"{title}\"",
                "Cal.Make Event: example \"new event\" does not fill required parameter \"{when}\"",
                "Cal.Make Event: two skills have this id; rename one",
                "Cal.Make Event: a skill id is \"Cal.<name>\" with [a-z0-9_-] segments",
                "Cal.Make Event: \"title\" is missing or empty",
                "Cal.Make Event: timeout must be a number of seconds more than 0",
                "Cal.Make Event: parameters should set \"additionalProperties\": false so typos are rejected",
                "Cal.Make Event: required parameter \"when\" is not in \"properties\"",
                "Cal.Make Event: example \"add {title} on {day}\" names \"day\", which is not a parameter",
                "Cal.Make Event: example \"add {title} on {day}\" does not fill required parameter \"{when}\"",
                "Cal.Make Event: example \"new event\" does not fill required parameter \"{title}\"",
                "Cal.Make Event: example \"new event\" does not fill required parameter \"{when}\"",
            ])
    }

    @Test func manifestWithoutSkillsOrSchemaIsReported() {
        let manifest: JSONValue = [
            "id": "x", "name": "X", "version": "1.0.0", "abi_version": "1.0", "description": "d",
            "skills": [["id": "x.a", "title": "A", "description": "a", "permission": "admin"]],
        ]
        #expect(
            SkillPlugin.problems(inManifest: manifest) == [
                "x.a: permission \"admin\" is not read, write or dangerous",
                "x.a: parameters must be an object schema with \"properties\"",
            ])
    }

    @Test func semverAcceptsPrereleaseAndBuild() {
        let manifest: JSONValue = [
            "id": "x", "name": "X", "version": "2.1.0-beta.1+abc", "abi_version": "1.0", "description": "d",
        ]
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
    }
}
