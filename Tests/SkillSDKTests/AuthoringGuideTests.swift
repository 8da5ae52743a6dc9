import SkillJSON
import SkillCheck
import SkillSDK
import Testing

/// The Swift snippets of docs/authoring.md, compiled and checked (the scaffold end-to-end test covers the
/// package layout and the generated skill).
@Suite struct AuthoringGuideTests {
    /// The "Parameter schemas" snippet, verbatim.
    struct Convert: Skill {
        struct Arguments: Decodable {
            var text: String
            var unit: String
        }

        let name = "convert"
        let title = "Snippet"
        let description = "The guide's parameter example. Not for anything else."
        let parameters = ParameterSchema.object(
            [
                "text": .string("The text", minLength: 1, maxLength: 100_000),
                "when": .string("A date, e.g. 2026-12-01", format: "date"),
                "code": .string("Two capital letters", pattern: "^[A-Z]{2}$"),
                "unit": .string("Unit of the value", oneOf: ["km", "mi"]),          // enum
                "count": .integer("How many (default 5)", minimum: 1, maximum: 50),
                "ratio": .number("A share between 0 and 1", minimum: 0, maximum: 1),
                "exact": .boolean("Match case"),
                "tags": .array("Labels to add", of: .string("A label", maxLength: 40), minItems: 1, maxItems: 10),
                // Anything the builders do not cover, written out (a raw JSON Schema):
                "range": .schema([
                    "type": "object",
                    "properties": ["start": ["type": "string", "format": "date-time"], "end": ["type": "string", "format": "date-time"]],
                    "required": ["start", "end"],
                    "additionalProperties": false,
                ]),
            ], required: ["text", "unit"])
        let examples = ["convert {text} to {unit}", "express {text} in {unit}"]

        func execute(_ arguments: Arguments, context: SkillContext) async throws -> JSONValue { [:] }
    }

    @Test func parameterSnippetBuildsTheSchemaTheGuideDescribes() {
        let schema = Convert().parameters
        #expect(schema["additionalProperties"] == false)
        #expect(schema["required"] == ["text", "unit"])
        #expect(schema["properties"]?["unit"]?["enum"] == ["km", "mi"])
        #expect(schema["properties"]?["tags"]?["items"]?["maxLength"] == 40)
        #expect(schema["properties"]?["ratio"]?["maximum"] == 1.0)
        #expect(schema["properties"]?["range"]?["required"] == ["start", "end"])
        let plugin = SkillPlugin(id: "guide", name: "Guide", version: "1.0.0", description: "Snippets.", skills: [Convert()])
        #expect(plugin.problems == [])
    }

    /// "Summaries, and how numbers read in them": a whole Double is written with ".0", an Int without.
    @Test func wholeNumberDoublesKeepTheirFraction() throws {
        struct Output: Encodable {
            var total: Double
            var rounded: Double
            var count: Int
        }
        let json = try JSONValueEncoder().encode(Output(total: 16, rounded: (15.46 * 10).rounded() / 10, count: 16))
        #expect(json.serialized() == #"{"total":16.0,"rounded":15.5,"count":16}"#)
    }
}
