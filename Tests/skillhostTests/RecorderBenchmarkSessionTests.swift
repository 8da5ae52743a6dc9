@testable import skillhost
import Testing

/// The history benchmark's sessions sort in no particular order, as the product's random UUIDs do, so no
/// mode gets sessions whose rows are appended at the end of the session-keyed trees while another's go
/// into the middle (see ``RecorderBenchmark/sessionID(_:)``).
@Suite struct RecorderBenchmarkSessionTests {
    @Test func sessionIDsAreDistinctAndNotInCreationOrder() {
        let ids = (0..<5000).map(RecorderBenchmark.sessionID)
        #expect(Set(ids).count == ids.count, "one session per number")
        #expect(ids.allSatisfy { $0.hasPrefix("bench-") && $0.utf8.count == 14 })
        // A new session sorts after every older one about as often as chance says (1/n for the n-th), not
        // always, as with zero-padded numbers, nor for whole runs of numbers, as with `bench-N`.
        var newest = ids[0]
        var atTheEnd = 0
        for id in ids.dropFirst() where id > newest {
            newest = id
            atTheEnd += 1
        }
        #expect(atTheEnd < 30, "\(atTheEnd) of 5000 sessions sorted after all older ones")
    }
}
