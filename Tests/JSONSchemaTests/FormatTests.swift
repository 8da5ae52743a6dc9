import Testing
import JSONSchema

@Suite struct FormatTests {
    func schema(_ format: String, assert: Bool) throws -> Schema {
        var options = SchemaOptions()
        options.assertFormats = assert
        return try Schema(compiling: ["format": .string(format)], options: options)
    }

    @Test func formatsAnnotateByDefault() throws {
        #expect(try schema("date-time", assert: false).isValid("not a date"))
        #expect(try schema("email", assert: false).isValid("nope"))
    }

    @Test(arguments: [
        ("date-time", "2024-01-31T09:30:00Z", "2024-02-30T09:30:00Z"),
        ("date", "2024-02-29", "2023-02-29"),
        ("time", "23:59:60Z", "24:00:00Z"),
        ("duration", "P3DT4H", "P1Y2D"),
        ("email", "ada@example.com", "ada@@example.com"),
        ("hostname", "api.example.com", "-bad-.example"),
        ("idn-hostname", "bücher.example", "a..b"),
        ("ipv4", "192.168.0.1", "192.168.0.256"),
        ("ipv6", "2001:db8::1", "2001:db8:::1"),
        ("uri", "https://example.com/a?b#c", "/relative/only"),
        ("uri-reference", "/relative/only", "\\\\bad"),
        ("iri", "https://例え.jp/パス", "例え"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"),
        ("json-pointer", "/items/0", "items/0"),
        ("relative-json-pointer", "1/name", "/name"),
        ("regex", "^[a-z]+$", "^(unclosed"),
        ("uri-template", "/users/{id}", "/users/{id"),
    ])
    func assertedFormats(_ format: String, _ valid: String, _ invalid: String) throws {
        let checked = try schema(format, assert: true)
        #expect(checked.isValid(.string(valid)), "\(format) should accept \(valid)")
        #expect(!checked.isValid(.string(invalid)), "\(format) should reject \(invalid)")
        #expect(checked.isValid(42), "formats apply to strings only")
    }

    @Test func formatMessageSaysWhatAValidValueLooksLike() throws {
        let error = try #require(try schema("date-time", assert: true).validate("tomorrow").first)
        #expect(error.message == #"expected a date-time (RFC 3339, e.g. 2024-01-31T09:30:00Z), got "tomorrow""#)
        #expect(error.keywordLocation == "/format")
    }

    @Test func unknownFormatsAlwaysPass() throws {
        #expect(try schema("x-custom", assert: true).isValid("anything"))
    }
}
