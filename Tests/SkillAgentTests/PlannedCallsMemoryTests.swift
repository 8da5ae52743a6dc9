@testable import SkillAgent
import SkillCalls
import SkillStore
import Testing

/// ``PlannedCalls`` keeps how a looked-up call ended only in the plans of calls with the same key that
/// still wait for their decision (the calls of one reply see each other); nothing outlives them, so a long
/// chat does not grow it and a call with no such twin costs no bookkeeping when it ends.
@Suite struct PlannedCallsMemoryTests {
    static func call(_ id: String, session: String = "s", key: String) -> CallRecord {
        CallRecord(callID: id, sessionID: session, skillID: "notes.add", argumentsJSON: "{}", status: .started, startedMilliseconds: 1, idempotencyKey: key)
    }

    /// What the recorder does when `call` ends: its plan is taken, then its outcome is handed on.
    static func end(_ call: CallRecord, _ planned: PlannedCalls, status: CallStatus = .succeeded) {
        _ = planned.take(call.callID)
        var done = call
        done.status = status
        planned.remember({ done }, callID: call.callID, key: call.idempotencyKey!, session: call.sessionID)
    }

    @Test func theSecondCallOfAReplySeesHowTheFirstEnded() {
        let planned = PlannedCalls()
        let first = Self.call("a", key: "s/notes.add/1")
        let second = Self.call("b", key: "s/notes.add/1")
        let read = Self.call("old", key: "s/notes.add/1")
        planned.plan(first, earlier: [])
        planned.plan(second, earlier: [read])
        #expect(planned.earlierCalls(of: "b")?.map(\.callID) == ["old"])
        Self.end(first, planned)
        // Newest first: the call that ended in this process, then those read with the message.
        #expect(planned.earlierCalls(of: "b")?.map(\.callID) == ["a", "old"])
        #expect(planned.earlierCalls(of: "b")?.first?.status == .succeeded)
        #expect(planned.decisionInputs(of: "b")?.idempotencyKey == "s/notes.add/1")
        #expect(planned.rememberedCount == 1)
        _ = planned.take("b")
        #expect(planned.rememberedCount == 0)
    }

    @Test func nothingIsKeptWhenNoPlannedCallWaitsForIt() {
        let planned = PlannedCalls()
        for reply in 0..<50 {
            let call = Self.call("c\(reply)", key: "s/notes.add/\(reply)")
            planned.plan(call, earlier: [])
            var made = 0
            _ = planned.take(call.callID)
            planned.remember({ made += 1; return call }, callID: call.callID, key: call.idempotencyKey!, session: "s")
            // The next call with this key reads it from the database, where it is written before that lookup.
            #expect(made == 0, "no record is made for nobody")
            #expect(planned.rememberedCount == 0)
        }
    }

    @Test func onlyLookedUpUnstartedCallsOfTheSessionWithTheKeyGetIt() {
        let planned = PlannedCalls()
        let ended = Self.call("a", key: "s/notes.add/1")
        planned.plan(ended, earlier: [])
        // Planned without a lookup (an idempotent skill): its decision reads nothing.
        planned.plan(Self.call("unread", key: "s/notes.add/1"))
        // Another key, another session, and a call already started (its decision was made).
        planned.plan(Self.call("other", key: "s/notes.add/2"), earlier: [])
        planned.plan(Self.call("elsewhere", session: "t", key: "s/notes.add/1"), earlier: [])
        planned.plan(Self.call("running", key: "s/notes.add/1"), earlier: [])
        #expect(planned.start("running", at: 2))
        Self.end(ended, planned)
        #expect(planned.earlierCalls(of: "unread") == nil)
        #expect(planned.earlierCalls(of: "other") == [])
        #expect(planned.earlierCalls(of: "elsewhere") == [])
        #expect(planned.earlierCalls(of: "running") == [])
        #expect(planned.rememberedCount == 0)
    }
}
