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
