import JSONSchema
import SkillHostCore
import SkillJSON
import Testing

/// The call path compiles a skill's parameters schema without the meta-schema check (the manifest checker
/// ran it when the plugin was scanned; issue #9): what the compiler itself cannot read is still refused,
/// and arguments are still validated with asserted formats.
@Suite("Argument schemas compile without the meta-schema on the call path")
struct ArgumentSchemaCompileTests {
    static var callPathOptions: SchemaOptions {
        var options = ManifestSchema.parameterOptions
        options.validatesAgainstMetaSchema = false
        return options
    }

    @Test(arguments: [
        ["type": "object", "properties": ["x": ["type": "no-such-type"]]] as JSONValue,
        ["type": "object", "properties": ["x": ["pattern": "(unclosed"]]] as JSONValue,
        ["type": "object", "properties": ["x": ["$ref": "#/nowhere"]]] as JSONValue,
    ])
    func schemasTheCompilerCannotReadAreRefused(schema: JSONValue) {
        #expect(throws: (any Error).self) { try Schema(compiling: schema, options: Self.callPathOptions) }
    }

    @Test func argumentsAreValidatedAsBefore() throws {
        let parameters: JSONValue = [
            "type": "object", "properties": ["when": ["type": "string", "format": "date-time"], "n": ["type": "integer", "minimum": 0]],
            "required": ["when"], "additionalProperties": false,
        ]
        let fast = try Schema(compiling: parameters, options: Self.callPathOptions)
        let checked = try Schema(compiling: parameters, options: ManifestSchema.parameterOptions)
        for arguments: JSONValue in [["when": "tomorrow"], ["when": "2026-03-01T09:30:00Z", "n": -1], ["n": 1], ["when": "2026-03-01T09:30:00Z", "x": 1], ["when": "2026-03-01T09:30:00Z"]] {
            #expect(fast.validate(arguments, maxErrors: 10).map(\.description) == checked.validate(arguments, maxErrors: 10).map(\.description))
        }
        #expect(fast.validate(["when": "tomorrow"], maxErrors: 10).count == 1)
        #expect(fast.validate(["when": "2026-03-01T09:30:00Z"], maxErrors: 10).isEmpty)
    }
}
