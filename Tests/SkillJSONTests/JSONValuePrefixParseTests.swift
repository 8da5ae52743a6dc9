import Testing

@testable import SkillJSON

/// `JSONValue.parse(_:at:enclosingLevels:sharing:)`: one value read in place inside a larger text.
@Suite struct JSONValuePrefixParseTests {
    static func parse(_ text: String, at start: Int, levels: Int = 0) -> (value: JSONValue?, index: Int) {
        var index = start
        let value = Array(text.utf8).withUnsafeBufferPointer { bytes in
            try? JSONValue.parse(bytes, at: &index, enclosingLevels: levels, sharing: nil)
        }
        return (value, index)
    }

    @Test("reads the value at the index and stops right after it, whatever follows")
    func readsOneValueInPlace() {
        let text = #"{"a":{"b":[1,"x}"]},"c":2} trailing"#
        let found = Self.parse(text, at: 5)
        #expect(found.value == ["b": [1, "x}"]])
        #expect(found.index == 19)
        #expect(Array(text.utf8)[found.index] == UInt8(ascii: ","))
        #expect(Self.parse("7,", at: 0).value == 7)
        #expect(Self.parse("7,", at: 0).index == 1)
    }

    @Test("a value that does not parse throws and leaves the index where it was")
    func badValueLeavesTheIndex() {
        let found = Self.parse(#"xx{"a":}"#, at: 2)
        #expect(found.value == nil)
        #expect(found.index == 2)
    }

    @Test("the depth limit counts the enclosing levels, as parsing the whole text would")
    func depthCountsEnclosingLevels() {
        let limit = JSONValue.maximumParseDepth
        let nested = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(Self.parse(nested, at: 0, levels: limit - 10).value != nil)
        #expect(Self.parse(nested, at: 0, levels: limit - 9).value == nil)
    }
}

/// The string scan's eight-bytes-at-a-time test (`JSONParser.needsALook`) against the byte-by-byte rule, on
/// every byte value in every position, and strings of every length around the word size parse as before.
@Suite struct JSONStringWordScanTests {
    static func byteNeedsALook(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x5C || byte < 0x20 || byte > 0x7F }

    @Test("a word needs a look exactly when one of its bytes does")
    func wordTestMatchesTheByteRule() {
        for byte in 0...255 {
            for position in 0..<8 {
                for filler: UInt8 in [0x41, 0x20, 0x7F, 0x21, 0x5D] {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = UInt8(byte)
                    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    #expect(JSONParser.needsALook(word) == bytes.contains(where: Self.byteNeedsALook), "byte \(byte) at \(position)")
                }
            }
        }
    }

    @Test("a word needs an escape exactly when one of its bytes does (quote, backslash, control)")
    func escapeWordTestMatchesTheByteRule() {
        for byte in 0...255 {
            for position in 0..<8 {
                for filler: UInt8 in [0x41, 0x20, 0x7F, 0x80, 0xFF, 0x21, 0x5D] {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = UInt8(byte)
                    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    let byRule = bytes.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
                    #expect(JSONParser.needsAnEscape(word) == byRule, "byte \(byte) at \(position) among \(filler)")
                }
            }
        }
    }

    @Test("strings of every length, with an escape or a control character anywhere, are written with the escapes and read back")
    func stringsRoundTrip() throws {
        for length in 0...20 {
            let plain = String(repeating: "b", count: length)
            for special in ["", "\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "日"] {
                for position in 0...length {
                    let text = String(plain.prefix(position)) + special + String(plain.dropFirst(position))
                    let written = JSONValue.string(text).serialized()
                    #expect(try JSONValue(parsing: written) == .string(text), "\(written)")
                    #expect(!written.utf8.dropFirst().dropLast().contains { $0 < 0x20 }, "no raw control byte: \(written)")
                }
            }
        }
        #expect(JSONValue.string("abcdefgh\"ijklmnop\\qrstuvw\u{02}xyz").serialized() == #""abcdefgh\"ijklmnop\\qrstuvw\u0002xyz""#)
    }

    @Test("strings of every length, with an escape, a control or a non-ASCII byte anywhere, parse as before")
    func stringsParse() throws {
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            #expect(try JSONValue(parsing: "\"\(plain)\"") == .string(plain))
            for position in 0..<max(length, 1) where length > 0 {
                var escaped = Array(plain)
                escaped[position] = "é"
                #expect(try JSONValue(parsing: "\"\(String(escaped))\"") == .string(String(escaped)))
                let withEscape = String(plain.prefix(position)) + "\\n" + String(plain.dropFirst(position))
                #expect(try JSONValue(parsing: "\"\(withEscape)\"") == .string(String(plain.prefix(position)) + "\n" + String(plain.dropFirst(position))))
                let withControl = Array(("\"" + String(plain.prefix(position)) + "\t" + String(plain.dropFirst(position)) + "\"").utf8)
                #expect(throws: JSONParseError.self) { try JSONValue(parsing: withControl) }
            }
        }
        // Invalid UTF-8 after a run of ASCII is still refused.
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: [0x22] + Array("abcdefghij".utf8) + [0xFF, 0x22]) }
    }
}
