import Testing
@testable import SkillJSON

@Suite struct JSONValueTests {
    @Test func parsesIntegersAndNumbersDistinctly() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "b": 1.5, "c": 1e2, "d": -0, "e": 123456789012345678901}"#)
        #expect(value["a"] == .int(1))
        if case .int = value["a"]! {} else { Issue.record("1 must parse as an integer") }
        if case .double(let b) = value["b"]! { #expect(b == 1.5) } else { Issue.record("1.5 must be a double") }
        if case .double(let c) = value["c"]! { #expect(c == 100) } else { Issue.record("1e2 must be a double") }
        if case .double = value["e"]! {} else { Issue.record("an out-of-range integer falls back to double") }
    }

    @Test func keepsKeyOrderButComparesWithoutIt() throws {
        let first = try JSONValue(parsing: #"{"z": 1, "a": [true, null], "m": "x"}"#)
        let second = try JSONValue(parsing: #"{"a": [true, null], "m": "x", "z": 1.0}"#)
        #expect(first.objectValue?.keys == ["z", "a", "m"])
        #expect(first.serialized() == #"{"z":1,"a":[true,null],"m":"x"}"#)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func roundTripsEscapesAndUnicode() throws {
        let text = #"["a\"b\\c\n\u0001", "\ud83d\ude00 é", "\u00e9"]"#
        let value = try JSONValue(parsing: text)
        #expect(value.arrayValue?[1] == .string("😀 é"))
        #expect(value.arrayValue?[2] == .string("é"))
        let again = try JSONValue(parsing: value.serialized())
        #expect(again == value)
        #expect(value.serialized().contains(#"\u0001"#))
    }

    /// The writer copies unescaped runs whole: escapes between, before and after multi-byte scalars and
    /// combining marks must come out exactly as RFC 8259 spells them, with the runs intact.
    @Test func writesEscapesBetweenUnescapedRunsExactly() throws {
        let string = "\"e\u{301}\"😀\\\u{1}x\n\t\u{8}\u{C}\r\u{1F}é\""
        #expect(JSONValue.string(string).serialized()
            == #""\"e\#u{301}\"😀\\\u0001x\n\t\b\f\r\u001fé\"""#)
        #expect(JSONValue.string("plain é 😀").serialized() == "\"plain é 😀\"")
        #expect(JSONValue.string("").serialized() == #""""#)
        #expect(try JSONValue(parsing: JSONValue.string(string).serialized()) == .string(string))
        let object: JSONValue = ["z": 1, "a": "\"", "m": [["y": 2, "b": 3]]]
        #expect(object.serialized() == #"{"z":1,"a":"\"","m":[{"y":2,"b":3}]}"#)
        #expect(object.serialized(options: .sortedKeys) == #"{"a":"\"","m":[{"b":3,"y":2}],"z":1}"#)
    }

    @Test(arguments: [
        ("{\"a\":1,}", 1, 8), ("[1,\n 2,\n x]", 3, 2), ("01", 1, 2), ("\"abc", 1, 5), ("{\"a\" 1}", 1, 6),
        ("[1] 2", 1, 5), ("\"\\ud800\"", 1, 8), ("nul", 1, 1), ("", 1, 1),
    ])
    func rejectsMalformedTextWithLineAndColumn(text: String, line: Int, column: Int) {
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("accepted malformed JSON \(text)")
        } catch {
            #expect(error.line == line, "\(text): \(error)")
            #expect(error.column == column, "\(text): \(error)")
        }
    }

    @Test func rejectsTooDeepNestingWithoutRecursingForever() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func prettyAndSortedOutput() throws {
        let value: JSONValue = ["b": 1, "a": ["x": true]]
        #expect(value.serialized(options: [.sortedKeys]) == #"{"a":{"x":true},"b":1}"#)
        #expect(value.serialized(options: [.prettyPrinted]) == "{\n  \"b\": 1,\n  \"a\": {\n    \"x\": true\n  }\n}")
    }

    @Test func pointers() throws {
        let value = try JSONValue(parsing: #"{"a/b": [10, {"~k": 3}]}"#)
        #expect(value.value(atPointer: "/a~1b/1/~0k") == .int(3))
        #expect(value.value(atPointer: "/a~1b/01") == nil)
        #expect(JSONPointer.appending("/x", "a/b~") == "/x/a~1b~0")
    }

    @Test func numericEqualityAndTypeNames() {
        #expect(JSONValue.int(1) == JSONValue.double(1.0))
        #expect(JSONValue.int(1) != JSONValue.double(1.5))
        #expect(JSONValue.double(2.0).typeName == "integer")
        #expect(JSONValue.double(2.5).typeName == "number")
        #expect(JSONValue.double(3.0).serialized() == "3.0")
    }
}
