import Foundation
import ICalendar
import Testing

/// Damaged files never crash the reader: every mangled variant of the fixtures either reads (listing its
/// occurrences, naming each part it skipped with a line and a fix, and writing back what it read so that
/// it reads the same again) or, when no component can be read at all, fails with an ``ICalendarError``
/// that names a line and a fix.
@Suite struct MalformedInputTests {
    typealias SplitMix = SeededGenerator

    static let pieces = [
        ":", ";", "=", "\"", ",", "\\", " ", "\r\n", "\n ", "BEGIN:VEVENT", "END:VEVENT", "END:VCALENDAR",
        "RRULE:FREQ=DAILY;COUNT=99999999", "RRULE:FREQ=MINUTELY", "RRULE:FREQ=WEEKLY;BYDAY=-99MO",
        "DTSTART:99991231T235960Z", "DTSTART;TZID=Nowhere:20261201T100000", "DURATION:P99999999W",
        "EXDATE:2026", "TZOFFSETFROM:+9999", "é", "日本", "\u{0}",
    ]

    @Test(arguments: ["rfc5545-examples.ics", "google-export.ics", "outlook-export.ics", "mixed-content.ics"])
    func mangledFixturesReadOrFailWithALine(fixture: String) throws {
        let original = Array(try String(contentsOfFile: PythonPeer.fixtures + "/" + fixture, encoding: .utf8))
        var random = SplitMix(state: UInt64(fixture.utf8.count))
        var read = 0
        var rejected = 0
        var skipped = 0
        for _ in 0..<150 {
            var text = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<text.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: text.removeSubrange(at..<min(text.count, at + Int.random(in: 1...40, using: &random)))
                case 1: text.insert(contentsOf: Self.pieces.randomElement(using: &random)!, at: at)
                case 2: text = Array(text[..<at])
                default: text.insert(contentsOf: "\r\n" + Self.pieces.randomElement(using: &random)! + "\r\n", at: at)
                }
            }
            do {
                let document = try ICalendarDocument(parsing: String(text))
                let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
                var warnings: [String] = []
                let listed = document.occurrences(in: 1_790_000_000..<1_800_000_000, zones: zones, warnings: &warnings)
                _ = document.todos()
                #expect(warnings.allSatisfy { $0.hasPrefix("line ") && $0.contains("; ") })
                if !document.skipped.isEmpty { skipped += 1 }
                // What we write from a file we could read reads the same again.
                let again = try ICalendarDocument(parsing: document.serialized())
                #expect(again.serialized() == document.serialized())
                let relisted = again.occurrences(in: 1_790_000_000..<1_800_000_000, zones: ICalZoneCatalog(document: again, floating: FixedOffsetZone.utc))
                #expect(relisted.map(\.start) == listed.map(\.start))
                read += 1
            } catch {
                #expect(error.line >= 0 && !error.message.isEmpty && !error.remedy.isEmpty)
                rejected += 1
            }
        }
        #expect(read + rejected == 150)
        #expect(skipped > 0, "the mangling should break some lines")
    }
}
