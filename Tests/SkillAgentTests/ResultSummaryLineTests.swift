import SkillCalls
import SkillAgent
import SkillJSON
import Testing

/// `ResultSummary.line` keeps its one-line, length-capped shape on both paths: the byte-checked fast path
/// (short text without line breaks) and the general one (issue #15).
@Suite struct ResultSummaryLineTests {
    @Test func shortSingleLineTextIsKeptAsItIs() {
        #expect(ResultSummary.line(for: ["message": "done in 3 s"]) == "done in 3 s")
        #expect(ResultSummary.line(for: ["message": ""]) == "")
    }

    @Test func lineBreaksAreJoinedAndLongTextIsCut() {
        #expect(ResultSummary.line(for: ["message": "first\nsecond\r\nthird"]) == "first second third")
        #expect(ResultSummary.line(for: ["message": "a\u{2028}b"]) == "a b")
        let long = String(repeating: "x", count: 130)
        #expect(ResultSummary.line(for: .object(["message": .string(long)])) == String(repeating: "x", count: 119) + "…")
        // Exactly at the limit: kept whole; non-ASCII text is counted in characters, not bytes.
        let accented = String(repeating: "é", count: 120)
        #expect(ResultSummary.line(for: .object(["message": .string(accented)])) == accented)
        #expect(ResultSummary.line(for: .object(["message": .string(String(repeating: "x", count: 120))])).count == 120)
    }
}
