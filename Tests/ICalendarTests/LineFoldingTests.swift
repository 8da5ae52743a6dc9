import ICalendar
import Testing

@Suite struct LineFoldingTests {
    @Test func unfoldsCRLFAndLFAndTabContinuations() {
        let text = "BEGIN:VCALENDAR\r\nSUMMARY:Hello\r\n  world\r\nDESCRIPTION:a\n\tb\nEND:VCALENDAR\n"
        let lines = LineFolding.unfold(text)
        #expect(lines.map(\.text) == ["BEGIN:VCALENDAR", "SUMMARY:Hello world", "DESCRIPTION:ab", "END:VCALENDAR"])
        #expect(lines.map(\.line) == [1, 2, 4, 6])
    }

    @Test func foldsAt75OctetsWithoutSplittingUTF8() {
        let line = "SUMMARY:" + String(repeating: "é", count: 100)  // 8 + 200 octets
        let folded = LineFolding.fold(line)
        let physical = folded.components(separatedBy: "\r\n")
        #expect(physical.count > 2)
        for (index, part) in physical.enumerated() {
            #expect(part.utf8.count <= 75)
            #expect(String(validating: Array(part.utf8), as: UTF8.self) != nil)
            if index > 0 { #expect(part.first == " ") }
        }
        #expect(LineFolding.unfold(folded).map(\.text) == [line])
    }

    @Test func shortLinesAreNotFolded() {
        let line = "SUMMARY:" + String(repeating: "a", count: 67)
        #expect(LineFolding.fold(line) == line)
        #expect(LineFolding.fold(line + "b").contains("\r\n "))
    }

    @Test func textEscapesRoundTrip() {
        let text = "Room 1; floor 2, north\\wing\nbring a badge"
        let escaped = ICalText.escape(text)
        #expect(escaped == "Room 1\\; floor 2\\, north\\\\wing\\nbring a badge")
        #expect(ICalText.unescape(escaped) == text)
        #expect(ICalText.unescape("a\\Nb") == "a\nb")
    }
}
