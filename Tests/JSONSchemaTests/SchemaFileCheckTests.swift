import Testing
import JSONSchema

@Suite struct SchemaFileCheckTests {
    let schema = Array(#"{"type": "object", "properties": {"time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"}}, "required": ["time"]}"#.utf8)

    @Test func validInstanceReportsValid() throws {
        let errors = try SchemaFileCheck.validate(
            schemaText: schema, schemaName: "s.json", instanceText: Array(#"{"time": "09:30"}"#.utf8), instanceName: "i.json")
        #expect(errors.isEmpty)
        #expect(SchemaFileCheck.textReport(errors, instanceName: "i.json") == "i.json: valid")
        #expect(SchemaFileCheck.jsonReport(errors) == ["valid": true, "errors": []])
    }

    @Test func invalidInstanceReportsEachErrorWithLocations() throws {
        let errors = try SchemaFileCheck.validate(
            schemaText: schema, schemaName: "s.json", instanceText: Array(#"{"time": 1000}"#.utf8), instanceName: "i.json")
        #expect(SchemaFileCheck.textReport(errors, instanceName: "i.json")
            == "i.json: `/time`: expected a string, got 1000 (schema /properties/time/type)")
        let json = SchemaFileCheck.jsonReport(errors)
        #expect(json["valid"] == false)
        #expect(json["errors"]?.arrayValue?.first == [
            "instanceLocation": "/time", "keywordLocation": "/properties/time/type", "message": "expected a string, got 1000",
        ])
    }

    @Test func schemaFileThatIsNotJSONNamesLineAndColumn() {
        do {
            _ = try SchemaFileCheck.validate(
                schemaText: Array("{\n  \"type\": }".utf8), schemaName: "s.json", instanceText: Array("1".utf8), instanceName: "i.json")
            Issue.record("a broken schema file must be rejected")
        } catch {
            #expect(error.message.hasPrefix("s.json: not JSON: line 2, column 11"))
            #expect(error.schemaError == nil)
            #expect(SchemaFileCheck.jsonReport(error)["error"]?["kind"] == "invalid_input")
        }
    }

    @Test func invalidSchemaNamesThePointer() {
        do {
            _ = try SchemaFileCheck.validate(
                schemaText: Array(#"{"properties": {"a": {"type": "strin"}}}"#.utf8), schemaName: "s.json",
                instanceText: Array("{}".utf8), instanceName: "i.json")
            Issue.record("an invalid schema must be rejected")
        } catch {
            #expect(error.schemaError?.pointer == "/properties/a/type")
            #expect(error.message.hasPrefix("s.json: invalid schema at `/properties/a/type`:"))
            let json = SchemaFileCheck.jsonReport(error)
            #expect(json["error"]?["kind"] == "invalid_schema")
            #expect(json["error"]?["pointer"] == "/properties/a/type")
        }
    }

    @Test func instanceFileThatIsNotJSONIsAnInputError() {
        #expect(throws: SchemaFileCheck.InputError.self) {
            try SchemaFileCheck.validate(schemaText: schema, schemaName: "s.json", instanceText: Array("{".utf8), instanceName: "i.json")
        }
    }
}
