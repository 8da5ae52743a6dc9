import Testing
@testable import SkillJSON

/// A parse sharing strings (``JSONSharedStrings``) must give what the plain parse gives, string for string,
/// error for error; and it must actually share.
@Suite struct JSONSharedStringsTests {
    static let table = JSONSharedStrings([
        "a", "b", "ab", "ba", "abc", "cba", "aXc", "key", "value", "jsonrpc", "2.0", "tools/call", "é", "",
        "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/protocolVersioN", String(repeating: "x", count: 64),
        String(repeating: "y", count: 65), "a", "a\"b",
    ])

    /// Both parses of `text`: equal serializations, or equal errors.
    static func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let plain = Result { () throws(JSONParseError) in try JSONValue(parsing: Array(text.utf8)) }
        let shared = Result { () throws(JSONParseError) in try JSONValue(parsing: Array(text.utf8), sharing: table) }
        switch (plain, shared) {
        case (.success(let value), .success(let other)):
            #expect(value.serialized() == other.serialized(), "\(text.debugDescription)", sourceLocation: sourceLocation)
            #expect(value == other, "\(text.debugDescription)", sourceLocation: sourceLocation)
        case (.failure(let error), .failure(let other)):
            #expect(error == other, "\(text.debugDescription)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(text.debugDescription): \(plain) vs \(shared)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        #"{"a":"b","ab":"ba","b":"a"}"#, #"["abc","cba","aXc","aYc","abd","bbc","abcd","ab"]"#,
        #"{"key":"value","key":"other"}"#, #"{"\u0061":"\u0062","a\"b":"a\"b"}"#, #"["é","e","\u00e9"]"#,
        #"["","a","",""]"#, #"{"":""}"#,
        #"["io.modelcontextprotocol/protocolVersion","io.modelcontextprotocol/protocolVersioN","io.modelcontextprotocol/protocolVersiom"]"#,
        "[\"\(String(repeating: "x", count: 64))\",\"\(String(repeating: "x", count: 63))\",\"\(String(repeating: "y", count: 65))\"]",
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#, #"["a"#, #"{"a":}"#, #"["ab\u0000"]"#, "[\"a\u{1}\"]", "[\"\u{FF}\"]",
    ])
    func edgeDocumentsParseAlike(_ text: String) {
        Self.expectSame(text)
    }

    @Test func randomDocumentsParseAlike() {
        var generator = SeededGenerator(seed: 36)
        let pieces = ["a", "b", "ab", "ba", "abc", "cba", "aXc", "aYc", "key", "kex", "value", "jsonrpc", "jsonrpC", "2.0", "2.1",
                      "tools/call", "tools/cal", "é", "\\u0061", "\\\"", "\\n", "io.modelcontextprotocol/protocolVersion", "x", "y", ""]
        func string() -> String {
            var text = "\""
            for _ in 0..<generator.below(3) { text += generator.pick(pieces) }
            return text + "\""
        }
        func value(_ depth: Int) -> String {
            switch depth > 3 ? 0 : generator.below(4) {
            case 0: return string()
            case 1: return generator.pick(["1", "-2.5", "true", "null"])
            case 2: return "[" + (0..<generator.below(4)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return "{" + (0..<generator.below(4)).map { _ in string() + ":" + value(depth + 1) }.joined(separator: ",") + "}"
            }
        }
        for round in 0..<2000 {
            var text = value(0)
            // Now and then a broken document: a byte cut off or changed.
            if round % 5 == 0, !text.isEmpty {
                var bytes = Array(text.utf8)
                let at = generator.below(bytes.count)
                if generator.below(2) == 0 { bytes.remove(at: at) } else { bytes[at] = generator.pick(Array("\"{}[],:\\a".utf8)) }
                text = String(decoding: bytes, as: UTF8.self)
            }
            Self.expectSame(text)
        }
    }

    @Test func aSharedStringIsTheTablesOwn() throws {
        let long = "io.modelcontextprotocol/protocolVersion"
        let value = try JSONValue(parsing: Array(#"{"io.modelcontextprotocol/protocolVersion":1}"#.utf8), sharing: Self.table)
        let key = try #require(value.objectValue?.keys.first)
        let own = try #require(Self.table.strings.first { $0 == long })
        var a = key, b = own
        let same = a.withUTF8 { a in b.withUTF8 { b in a.baseAddress == b.baseAddress } }
        #expect(same, "the parsed key is the table's string, not a copy")
        #expect(Self.table.string(for: UnsafeBufferPointer(start: nil, count: 0)) == nil)
        #expect(Self.table.strings.filter { $0 == "a" }.count == 1 && !Self.table.strings.contains(String(repeating: "y", count: 65)))
        #expect(!Self.table.strings.contains(""))
    }

    /// The JSON fuzz targets' seeds and regressions parse alike with and without the table (the `json` fuzz
    /// target checks the same on what it generates).
    @Test func theFuzzInputsParseAlike() {
        let inputs = FuzzCorpus.inputs("json", "json-diff")
        #expect(inputs.count > 50)
        for (_, bytes) in inputs { Self.expectSame(String(decoding: bytes, as: UTF8.self)) }
    }
}
