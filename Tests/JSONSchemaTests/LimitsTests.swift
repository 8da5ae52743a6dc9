import Testing
import JSONSchema

/// Hostile schemas must not hang or exhaust the host: each bound reports instead of recursing.
@Suite struct LimitsTests {
    @Test func selfReferenceIsReportedNotRecursedForever() throws {
        let schema = try Schema(compiling: ["$ref": "#"])
        #expect(!schema.isValid(1))
        let errors = schema.validate(1)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("nesting exceeds \(SchemaLimits.maximumEvaluationDepth)") == true)
    }

    @Test func mutualReferencesThatNeverDescendAreBounded() throws {
        let schema = try Schema(compiling: [
            "$defs": ["a": ["$ref": "#/$defs/b"], "b": ["allOf": [["$ref": "#/$defs/a"]]]],
            "$ref": "#/$defs/a",
        ])
        #expect(!schema.isValid(["x": 1]))
    }

    @Test func recursiveSchemaStillValidatesFiniteInstances() throws {
        let tree: JSONValue = [
            "type": "object",
            "properties": ["value": ["type": "integer"], "children": ["type": "array", "items": ["$ref": "#"]]],
        ]
        let schema = try Schema(compiling: tree)
        let instance: JSONValue = ["value": 1, "children": [["value": 2, "children": [["value": 3]]]]]
        #expect(schema.isValid(instance))
        let errors = schema.validate(["value": 1, "children": [["value": "x"]]])
        #expect(errors.map(\.instanceLocation) == ["/children/0/value"])
        #expect(errors.map(\.keywordLocation) == ["/properties/value/type"])
    }

    @Test func deepInstancesHitTheBoundInsideTasksWithoutOverflowingTheStack() async throws {
        var instance: JSONValue = 1
        for _ in 0..<(JSONValue.maximumParseDepth - 1) { instance = [instance] }
        let schema = try Schema(compiling: ["type": ["array", "integer"], "items": ["$ref": "#"]])
        let (valid, errors) = await Task.detached { (schema.isValid(instance), schema.validate(instance)) }.value
        #expect(!valid)
        #expect(errors.first?.message.contains("nesting exceeds") == true)
        var shallow: JSONValue = 1
        for _ in 0..<100 { shallow = [shallow] }
        #expect(schema.isValid(shallow))
    }

    @Test func tooDeeplyNestedSchemaIsRejected() {
        var schema: JSONValue = ["type": "string"]
        for _ in 0...SchemaLimits.maximumSchemaDepth { schema = ["items": schema] }
        var options = SchemaOptions()
        options.validatesAgainstMetaSchema = false
        do {
            _ = try Schema(compiling: schema, options: options)
            Issue.record("a schema nested past the limit must be rejected")
        } catch {
            #expect(error.message.contains("deeper than \(SchemaLimits.maximumSchemaDepth)"))
            #expect(error.pointer.hasPrefix("/items/items"))
        }
    }

    @Test func tooManySubschemasAreRejected() {
        var properties = JSONObject()
        for index in 0...SchemaLimits.maximumNodes { properties["p\(index)"] = true }
        var options = SchemaOptions()
        options.validatesAgainstMetaSchema = false
        #expect(throws: SchemaError.self) {
            try Schema(compiling: ["properties": .object(properties)], options: options)
        }
    }

    @Test func hugeCountedRepetitionIsRejectedAtCompileTime() {
        #expect(throws: SchemaError.self) { try Schema(compiling: ["pattern": "^(abcd){3000}(efgh){3000}$"]) }
    }
}
