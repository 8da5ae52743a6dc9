import Foundation
import ICalendar
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the iCalendar
/// target through the same entry points as Tests/Fuzz/Targets/ICalendarFuzz.swift.
@Suite struct FuzzReplayTests {
    @Test func calendarsParseExpandOrFailWithALine() {
        let inputs = FuzzCorpus.inputs("ical")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do {
                let document = try ICalendarDocument(parsing: String(decoding: bytes, as: UTF8.self))
                _ = document.serialized()
                let zones = try ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
                _ = try document.occurrences(in: 1_767_225_600..<1_772_323_200, zones: zones)
            } catch {
                #expect(!"\(error)".isEmpty, "\(name)")
            }
        }
    }
}
