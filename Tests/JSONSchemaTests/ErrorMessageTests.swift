import Testing
import JSONSchema

/// Every failure names the instance location, the keyword location and an actionable one-line message.
@Suite struct ErrorMessageTests {
    static let event: JSONValue = [
        "type": "object",
        "properties": [
            "priority": ["enum": ["low", "normal", "high"]],
            "duration": ["type": "integer", "minimum": 1, "maximum": 1440],
            "attendees": [
                "type": "array", "maxItems": 3,
                "items": ["type": "object", "properties": ["email": ["type": "string"]], "required": ["email"]],
            ],
            "when": ["anyOf": [["type": "string", "format": "date-time"], ["type": "integer", "minimum": 0]]],
            "tags": ["type": "array", "uniqueItems": true],
        ],
        "additionalProperties": false,
    ]

    func errors(_ instance: JSONValue, _ schemaValue: JSONValue = event) throws -> [ValidationError] {
        var options = SchemaOptions()
        options.assertFormats = true
        return try Schema(compiling: schemaValue, options: options).validate(instance)
    }

    @Test func enumListsTheAllowedValues() throws {
        let error = try #require(try errors(["priority": "urgent"]).first)
        #expect(error.description == #"`/priority`: expected "low", "normal" or "high", got "urgent""#)
        #expect(error.keywordLocation == "/properties/priority/enum")
    }

    @Test func numericLimitsNameTheBound() throws {
        #expect(try errors(["duration": 0]).first?.message == "expected a number at least 1, got 0")
        #expect(try errors(["duration": 2000]).first?.message == "expected a number at most 1440, got 2000")
        #expect(try errors(["duration": 1.5]).first?.message == "expected an integer, got 1.5")
    }

    @Test func nestedErrorsPointIntoArrays() throws {
        let found = try errors(["attendees": [["email": "a@example.com"], ["name": "Bo"], ["email": 7]]])
        #expect(found.map(\.instanceLocation) == ["/attendees/1", "/attendees/2/email"])
        #expect(found.map(\.keywordLocation) == ["/properties/attendees/items/required", "/properties/attendees/items/properties/email/type"])
        #expect(found[0].message == #"missing required property "email""#)
    }

    @Test func anyOfExplainsTheAlternativeThatFitsTheType() throws {
        let typed = try errors(["when": "tomorrow"])
        #expect(typed.count == 1)
        #expect(typed.first?.keywordLocation == "/properties/when/anyOf/0/format")
        #expect(typed.first?.message.hasPrefix("expected a date-time (RFC 3339") == true)
        let neither = try errors(["when": true])
        #expect(neither.first?.message == "expected a string or an integer, got true")
        #expect(neither.first?.keywordLocation == "/properties/when/anyOf")
    }

    @Test func unexpectedPropertyNamesWhatIsAllowed() throws {
        let error = try #require(try errors(["colour": "blue"]).first)
        #expect(error.instanceLocation == "/colour")
        #expect(error.keywordLocation == "/additionalProperties")
        #expect(error.message.hasPrefix(#"unexpected property "colour" (allowed: "attendees", "duration""#))
    }

    @Test func duplicatesAndCountsAreExplained() throws {
        #expect(try errors(["tags": ["a", "b", "a"]]).first?.message == #"items 0 and 2 are equal ("a"); items must be unique"#)
        #expect(try errors(["attendees": [["email": "a"], ["email": "b"], ["email": "c"], ["email": "d"]]]).first?.message
            == "expected at most 3 items, got 4")
    }

    @Test(arguments: [
        ("maxLength", 2, "abc" as JSONValue, #"expected at most 2 characters, got 3: "abc""#),
        ("minLength", 4, "é🐲x", #"expected at least 4 characters, got 3: "é🐲x""#),
        ("maxItems", 1, [1, 2], "expected at most 1 items, got 2"),
        ("minItems", 3, [1, 2], "expected at least 3 items, got 2"),
        ("maxProperties", 1, ["a": 1, "b": 2], "expected at most 1 properties, got 2"),
        ("minProperties", 2, ["a": 1], "expected at least 2 properties, got 1"),
    ] as [(String, Int, JSONValue, String)])
    func countLimitsNameTheKeywordAndTheCount(keyword: String, limit: Int, instance: JSONValue, message: String) throws {
        let schema: JSONValue = [keyword: .int(Int64(limit))]
        let found = try errors(instance, schema)
        #expect(found.map(\.message) == [message])
        #expect(found.first?.keywordLocation == "/\(keyword)")
        #expect(try errors(true, schema).isEmpty, "a count limit ignores other types")
    }

    @Test func hugeMinLengthRejectsWithoutOverflowing() throws {
        let found = try errors("abc", ["minLength": .int(Int64.max)])
        #expect(found.first?.keywordLocation == "/minLength")
    }

    @Test func oneOfMatchingTwiceSaysWhich() throws {
        let found = try errors(5, ["oneOf": [["type": "integer"], ["minimum": 0]]])
        #expect(found.first?.message == "5 matches alternatives 0 and 1 of oneOf; it must match exactly one")
    }

    @Test func errorsInsideReferencesUseTheTargetLocation() throws {
        let found = try errors(["start": "9am"], [
            "$defs": ["time": ["type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$"]],
            "properties": ["start": ["$ref": "#/$defs/time"]],
        ])
        #expect(found.first?.instanceLocation == "/start")
        #expect(found.first?.keywordLocation == "/$defs/time/pattern")
        #expect(found.first?.description == #"`/start`: expected a string matching /^[0-2][0-9]:[0-5][0-9]$/, got "9am""#)
    }

    @Test func longEnumsMatchByValueAndListTheFirstChoices() throws {
        let countries: JSONValue = .array((0..<40).map { .string("C\($0)") } + [1, ["k": [true]]])
        let schema = try Schema(compiling: ["enum": countries])
        #expect(schema.isValid("C39"))
        #expect(schema.isValid(1.0))
        #expect(schema.isValid(["k": [true]]))
        #expect(!schema.isValid("C40"))
        #expect(schema.validate("C40").first?.message.contains("(and 32 more)") == true)
    }

    @Test func longValuesAreShortenedInMessages() throws {
        let long = String(repeating: "x", count: 500)
        let message = try #require(try errors(.string(long), ["type": "integer"]).first?.message)
        #expect(message.count < 100)
        #expect(message.hasSuffix("…"))
    }

    @Test func unevaluatedPropertiesIsReportedPerProperty() throws {
        let found = try errors(["a": 1, "b": 2], [
            "allOf": [["properties": ["a": true]]], "unevaluatedProperties": false,
        ])
        #expect(found.map(\.description) == [#"`/b`: unexpected property "b"; remove it"#])
        #expect(found.first?.keywordLocation == "/unevaluatedProperties")
    }
}
