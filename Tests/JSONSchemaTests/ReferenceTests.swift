import Testing
import JSONSchema

@Suite struct ReferenceTests {
    @Test func givenDocumentsResolveByURIAndRelativeReferences() throws {
        var options = SchemaOptions()
        options.documents = [
            "https://example.com/schemas/address.json": [
                "$id": "https://example.com/schemas/address.json",
                "type": "object",
                "properties": ["zip": ["$ref": "zip.json"]],
                "required": ["zip"],
            ],
            "https://example.com/schemas/zip.json": ["type": "string", "pattern": "^[0-9]{5}$"],
        ]
        let schema = try Schema(
            compiling: ["$id": "https://example.com/schemas/order.json", "properties": ["ship_to": ["$ref": "address.json"]]],
            options: options)
        #expect(schema.isValid(["ship_to": ["zip": "12345"]]))
        let errors = schema.validate(["ship_to": ["zip": "1234"]])
        #expect(errors.map(\.instanceLocation) == ["/ship_to/zip"])
    }

    @Test func metaSchemasAreBuiltIn() throws {
        let schema = try Schema(compiling: ["$ref": "https://json-schema.org/draft/2020-12/schema"])
        #expect(schema.isValid(["type": "string"]))
        #expect(!schema.isValid(["type": 12]))
    }

    @Test func unresolvableReferenceNamesItsPointer() {
        do {
            _ = try Schema(compiling: ["properties": ["a": ["$ref": "https://elsewhere.example/x.json"]]])
            Issue.record("an unknown remote document must be an error, never fetched")
        } catch {
            #expect(error.pointer == "/properties/a/$ref")
            #expect(error.message.contains("pass the document that has it"))
        }
    }

    @Test func anchorsAndDynamicReferences() throws {
        let list: JSONValue = [
            "$id": "https://example.com/list",
            "$defs": ["item": ["$dynamicAnchor": "item"]],
            "type": "array",
            "items": ["$dynamicRef": "#item"],
        ]
        var options = SchemaOptions()
        options.documents = ["https://example.com/list": list]
        let strings = try Schema(compiling: [
            "$id": "https://example.com/strings",
            "$ref": "list",
            "$defs": ["item": ["$dynamicAnchor": "item", "type": "string"]],
        ], options: options)
        #expect(strings.isValid(["a", "b"]))
        #expect(!strings.isValid(["a", 1]))
        #expect(try Schema(compiling: list).isValid(["a", 1]))
    }

    @Test func compiledSchemasValidateConcurrently() async throws {
        let schema = try Schema(compiling: ["type": "array", "items": ["type": "integer", "minimum": 0]])
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask { schema.isValid(.array((0..<50).map { .int(Int64($0 + index)) })) && !schema.isValid([-1]) }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results == Array(repeating: true, count: 16))
    }
}
