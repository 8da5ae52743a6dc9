import SkillCheck
import SkillSDK
import Testing

/// `plugin.problems` runs the host's own manifest checker (the one `skillhost validate` uses), so an author's
/// test finds exactly what the host would refuse, every fault at once.
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

    /// Compiles, and is silently ignored: `Int` and `String` do not satisfy `Double` and `String?`.
    struct Trapped: Skill {
        let name = "trapped"
        let title = "Trapped"
        let description = "Shows the literal-type traps."
        let parameters: JSONValue = ["type": "object", "properties": [:], "additionalProperties": false]
        let timeout = 2
        let summary = "Done."

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { arguments }
    }

    struct BadSchema: Skill {
        let name = "shout"
        let title = "Shout"
        let description = "Shouts."
        let parameters: JSONValue = [
            "type": "object",
            "properties": [
                "text": ["type": "strng"],
                "code": ["type": "string", "pattern": "([a-z]"],
                "tag": ["type": "string", "pattern": "[z-a]"],
            ],
            "additionalProperties": false,
        ]

        func execute(_ arguments: JSONValue, context: SkillContext) async throws -> JSONValue { arguments }
    }

    @Test func testSkillsHaveNoProblems() {
        #expect(TestSkills.plugin.problems == [])
    }

    @Test func eachMistakeIsReportedOnItsOwnLine() {
        let plugin = SkillPlugin(
            id: "Cal", name: "Cal", version: "01.0.0", description: "Calendar.", skills: [Sloppy(), Sloppy()])
        let problems = plugin.problems
        let expected = [
            #"manifest /id: id "Cal" contains 'C'; ids are lower case: write "cal""#,
            #"manifest /version: "01.0.0" is not a semantic version; write MAJOR.MINOR.PATCH, e.g. "1.0.0""#,
            #"manifest /skills/0/id (skill Cal.Make Event): id "Cal.Make Event" contains 'C'; use only a-z, 0-9, '_', '-' and '.' between segments"#,
            #"manifest /skills/0/title (skill Cal.Make Event): must not be empty"#,
            #"manifest /skills/0/timeout (skill Cal.Make Event): must be a number of seconds > 0 and ≤ 86400, got 0"#,
            #"manifest /skills/0/parameters/required/1 (skill Cal.Make Event): required parameter "when" is not in "properties"; describe it there or remove it from "required""#,
            #"manifest /skills/0/examples/0 (skill Cal.Make Event): example "add {title} on {day}" names {day}, which is not a parameter; use one of the names in "properties""#,
            #"manifest /skills/1/id (skill Cal.Make Event): duplicate skill id: "Cal.Make Event" is also the id of /skills/0/id; give each skill its own id"#,
            #"manifest /skills/0/examples/1 (skill Cal.Make Event): example "new event" does not fill required parameter {title}; add the slot so the offline planner can fill it"#,
            #"manifest /skills/0/parameters/additionalProperties (skill Cal.Make Event): should be false so a misspelt argument is rejected instead of ignored; add "additionalProperties": false"#,
        ]
        for line in expected {
            #expect(problems.contains(line), "missing: \(line)\nall: \(problems.joined(separator: "\n"))")
        }
    }

    @Test func unknownTypeAndEveryInvalidPatternAreReported() {
        let plugin = SkillPlugin(id: "loud", name: "Loud", version: "1.0.0", description: "Loud.", skills: [BadSchema()])
        let problems = plugin.problems.joined(separator: "\n")
        #expect(problems.contains("/skills/0/parameters/properties/text/type"), "\(problems)")
        #expect(problems.contains("/skills/0/parameters/properties/code/pattern"), "\(problems)")
        #expect(problems.contains("/skills/0/parameters/properties/tag/pattern"), "\(problems)")
    }

    @Test func membersOfTheWrongLiteralTypeAreNamed() {
        let plugin = SkillPlugin(id: "trap", name: "Trap", version: "1.0.0", description: "Traps.", skills: [Trapped()])
        let problems = plugin.problems
        #expect(problems.contains { $0.contains("member \"timeout\" is Int, not Double") && $0.contains("let timeout: Double") })
        #expect(problems.contains { $0.contains("member \"summary\" is String, not Optional<String>") })
        #expect(problems.count == 2, "\(problems)")
    }

    @Test func manifestWithoutSkillsOrSchemaIsReported() {
        let manifest: JSONValue = [
            "id": "x", "name": "X", "version": "1.0.0", "abi_version": "1.0", "description": "d",
            "skills": [["id": "x.a", "title": "A", "description": "a", "permission": "admin"]],
        ]
        #expect(
            SkillPlugin.problems(inManifest: manifest) == [
                #"manifest /skills/0/permission (skill x.a): "admin" is not a permission; use one of read, write, dangerous"#,
                #"manifest /skills/0 (skill x.a): is missing the required member "idempotent" (true or false)"#,
                #"manifest /skills/0 (skill x.a): is missing the required member "parameters" (a JSON Schema object)"#,
            ])
    }

    @Test func semverAcceptsPrereleaseAndBuild() {
        let manifest: JSONValue = [
            "id": "x", "name": "X", "version": "2.1.0-beta.1+abc", "abi_version": "1.0", "description": "d",
            "skills": [["id": "x.a", "title": "A", "description": "a", "permission": "read", "idempotent": true,
                        "parameters": ["type": "object", "additionalProperties": false]]],
        ]
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
    }
}
