import Testing
import JSONSchema

@Suite struct SchemaAPITests {
    static let toolSchema: JSONValue = [
        "type": "object",
        "properties": [
            "time": ["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"],
            "count": ["type": "integer", "minimum": 1],
        ],
        "required": ["time"],
        "additionalProperties": false,
    ]

    @Test func validInstanceHasNoErrors() throws {
        let schema = try Schema(compiling: Self.toolSchema)
        let instance: JSONValue = ["time": "09:30", "count": 2]
        #expect(schema.validate(instance) == [])
        #expect(schema.isValid(instance))
    }

    @Test func errorsNameInstanceAndKeywordLocations() throws {
        let schema = try Schema(compiling: Self.toolSchema)
        let errors = schema.validate(["time": 1000, "extra": true])
        #expect(!schema.isValid(["time": 1000]))
        let typeError = try #require(errors.first { $0.instanceLocation == "/time" })
        #expect(typeError.keywordLocation == "/properties/time/type")
        #expect(typeError.description == "`/time`: expected a string, got 1000")
        let extra = try #require(errors.first { $0.instanceLocation == "/extra" })
        #expect(extra.keywordLocation == "/additionalProperties")
        #expect(extra.message.contains("unexpected property \"extra\""))
    }

    @Test func missingRequiredPropertyIsReportedAtTheRoot() throws {
        let schema = try Schema(compiling: Self.toolSchema)
        let errors = schema.validate([:])
        #expect(errors.count == 1)
        #expect(errors.first?.description == "(root): missing required property \"time\"")
        #expect(errors.first?.keywordLocation == "/required")
    }

    @Test func invalidSchemaIsRejectedWithPointer() {
        #expect(throws: SchemaError.self) { try Schema(compiling: ["type": "strin"]) }
        do {
            _ = try Schema(compiling: ["properties": ["a": ["minLength": -1]]])
            Issue.record("a negative minLength must be rejected")
        } catch {
            #expect(error.pointer == "/properties/a/minLength")
        }
    }

    @Test func maxErrorsLimitsTheReport() throws {
        let schema = try Schema(compiling: ["type": "array", "items": ["type": "integer"]])
        let errors = schema.validate(.array(Array(repeating: .string("x"), count: 50)), maxErrors: 3)
        #expect(errors.count == 3)
        #expect(errors.map(\.instanceLocation) == ["/0", "/1", "/2"])
    }
}
