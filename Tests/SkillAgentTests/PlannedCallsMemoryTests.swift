@testable import SkillAgent
import SkillStore
import Testing

/// ``PlannedCalls`` remembers how looked-up calls ended only until the session's next lookup (which reads
/// them from the database): a long chat does not grow it, and the calls of one reply still see each other.
@Suite struct PlannedCallsMemoryTests {
    static func call(_ id: String, session: String = "s", key: String) -> CallRecord {
        CallRecord(callID: id, sessionID: session, skillID: "notes.add", argumentsJSON: "{}", status: .started, startedMilliseconds: 1, idempotencyKey: key)
    }

    @Test func outcomesLastUntilTheSessionsNextLookup() {
        let planned = PlannedCalls()
        for reply in 0..<50 {
            // One reply asking for two calls with the same key: both planned (after one read), then run.
            let first = Self.call("a\(reply)", key: "s/notes.add/\(reply)")
            let second = Self.call("b\(reply)", key: "s/notes.add/\(reply)")
            planned.plan(first, earlier: [])
            planned.plan(second, earlier: [])
            #expect(planned.earlierCalls(of: "b\(reply)") == [])
            var done = first
            done.status = .succeeded
            planned.remember(done)
            // The second call of the reply sees how the first ended.
            #expect(planned.earlierCalls(of: "b\(reply)")?.map(\.callID) == ["a\(reply)"])
            #expect(planned.rememberedCount == 1)
        }
        // Another session's lookup leaves this session's outcomes alone.
        planned.plan(Self.call("x", session: "t", key: "t/notes.add/1"), earlier: [])
        #expect(planned.rememberedCount == 1)
        // A call planned without a lookup (an idempotent skill) does not clear them either.
        planned.plan(Self.call("y", key: "s/notes.add/y"))
        #expect(planned.rememberedCount == 1)
        planned.plan(Self.call("z", key: "s/notes.add/z"), earlier: [])
        #expect(planned.rememberedCount == 0)
    }
}
