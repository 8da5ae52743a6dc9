import Foundation
import ICalendar
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the iCalendar
/// target through the same entry points as Tests/Fuzz/Targets/ICalendarFuzz.swift.
@Suite struct FuzzReplayTests {
    /// Each input within 2 s of this thread's CPU time (not wall-clock time, which a loaded machine
    /// stretches): the regressions/ical inputs took 5 s to 40 s before the expansion was bounded by the range.
    @Test func calendarsParseExpandOrFailWithALine() {
        let inputs = FuzzCorpus.inputs("ical")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let started = Self.threadCPUSeconds()
            do {
                let document = try ICalendarDocument(parsing: String(decoding: bytes, as: UTF8.self))
                _ = document.serialized()
                let zones = ICalZoneCatalog(document: document, floating: FixedOffsetZone.utc)
                _ = document.occurrences(in: 1_767_225_600..<1_772_323_200, zones: zones)
            } catch {
                #expect(!"\(error)".isEmpty, "\(name)")
            }
            let seconds = Self.threadCPUSeconds() - started
            #expect(seconds < 2, "\(name) took \(seconds) s of CPU time")
        }
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
