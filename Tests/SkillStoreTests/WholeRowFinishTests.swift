import Foundation
@testable import SkillStore
import Testing

/// Calls whose row is written whole when they finish (`HistoryStore.recordFinish(of:)`): while they run,
/// their assistant message's `tool_calls` entry stands for them.
@Suite struct WholeRowFinishTests {
    static let result = CallOutcome(status: .succeeded, resultJSON: #"{"time":"12:00"}"#, summary: "12:00", durationMilliseconds: 1.5)

    /// Session "s" with an assistant message asking for `ids` (skill `clock.now`, key `s/clock.now/<id>`);
    /// returns the store and the message's position.
    static func storeWithAskingMessage(_ state: TempState, ids: [String] = ["c1"]) throws -> (HistoryStore, Int) {
        let store = try HistoryStore(path: state.databasePath, clock: { 1000 })
        try store.createSession(id: "s")
        try store.appendMessages([MessageRecord(role: "user", content: "time?")], session: "s")
        let items = ids.map { #"{"id":"\#($0)","name":"clock_now","arguments":"{}","skill_id":"clock.now","idempotency_key":"s/clock.now/\#($0)"}"# }
        let position = try store.appendMessages(
            [MessageRecord(role: "assistant", content: "", toolCallsJSON: "[" + items.joined(separator: ",") + "]")], session: "s")
        return (store, position)
    }

    static func call(_ id: String, at position: Int) -> CallRecord {
        CallRecord(
            callID: id, sessionID: "s", messagePosition: position, skillID: "clock.now", argumentsJSON: "{}", status: .started,
            startedMilliseconds: 900, idempotencyKey: "s/clock.now/\(id)")
    }

    @Test func theRowIsWrittenOnceWithTheToolMessage() throws {
        let state = TempState()
        let (store, position) = try Self.storeWithAskingMessage(state)
        #expect(position == 1)
        var outcome = Self.result
        outcome.workerPID = 31
        try store.recordFinish(of: Self.call("c1", at: position), with: outcome, context: ["last": "1"])
        // On disk in the log at once, with what the row needs.
        let log = try #require(FinishLogTests.logs(state).first)
        let decoded = FinishRecordCoding.decodeAll([UInt8](TempState.bytes(state.directory + "/" + log)))
        #expect(decoded.problem == nil)
        #expect(decoded.records.first?.start?.callID == "c1")
        #expect(decoded.records.first?.start?.messagePosition == 1)
        let other = try HistoryStore(path: state.databasePath)
        #expect(try other.calls(matching: TraceFilter()).isEmpty)
        try store.appendMessages([MessageRecord(role: "tool", content: "12:00", toolCallID: "c1")], session: "s")
        let calls = try other.calls(matching: TraceFilter())
        #expect(calls.count == 1)
        let row = try #require(calls.first)
        #expect(row.status == .succeeded)
        #expect(row.messagePosition == 1)
        #expect(row.startedMilliseconds == 900)
        #expect(row.durationMilliseconds == 1.5)
        #expect(row.idempotencyKey == "s/clock.now/c1")
        #expect(row.workerPID == 31)
        #expect(try other.context(session: "s") == ["last": "1"])
        #expect(try other.calls(idempotencyKey: "s/clock.now/c1", session: "s").map(\.status) == [.succeeded])
    }

    @Test func aCallAskedForThatNeverFinishedIsMarkedInterruptedOnce() throws {
        let state = TempState()
        let (store, position) = try Self.storeWithAskingMessage(state, ids: ["c1", "c2", "c3"])
        // c1 finished and was answered; c3 was answered without running; c2 was running when the process died.
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result)
        try store.appendMessages(
            [MessageRecord(role: "tool", content: "12:00", toolCallID: "c1"), MessageRecord(role: "tool", content: "no", toolCallID: "c3")],
            session: "s")
        #expect(try store.markUnfinishedCalls(session: "s") == 1)
        let calls = try store.calls(matching: TraceFilter()).reversed().map { $0 }
        #expect(calls.map(\.callID) == ["c1", "c2"])
        let interrupted = calls[1]
        #expect(interrupted.status == .interrupted)
        #expect(interrupted.errorKind == "interrupted")
        #expect(interrupted.skillID == "clock.now")
        #expect(interrupted.messagePosition == position)
        #expect(interrupted.durationMilliseconds == nil)
        #expect(interrupted.idempotencyKey == "s/clock.now/c2", "so a retry of a non-idempotent skill asks first")
        #expect(try store.markUnfinishedCalls(session: "s") == 0)
        #expect(try store.calls(failedOnlyIn: "s") == ["c2"])
    }

    @Test func aWholeRowRecordIsRecoveredFromTheLogOfAProcessThatDied() throws {
        let state = TempState()
        let position = try Self.storeWithAskingMessage(state, ids: ["c1", "c2"]).1
        var wholeRows = [
            HistoryStore.wholeRow(Self.call("c1", at: position), Self.result, ["k": "\"v\""], now: 5),
            HistoryStore.wholeRow(Self.call("c2", at: position), Self.result, [:], now: 6),
        ]
        // c2 was marked interrupted by a resume before the log was recovered: the record finishes it.
        do {
            let store = try HistoryStore(path: state.databasePath)
            #expect(try store.markUnfinishedCalls(session: "s") == 2)
            try store.deleteCall(callID: "c1")
        }
        let path = try FinishLogTests.abandonedLog(state, wholeRows)
        do {
            let store = try HistoryStore(path: state.databasePath)
            #expect(store.finishLogProblems.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: path))
            let calls = try store.calls(matching: TraceFilter())
            #expect(calls.count == 2)
            #expect(calls.allSatisfy { $0.status == .succeeded })
            #expect(try store.context(session: "s") == ["k": "\"v\""])
        }
        // The same records again (committed before the log was emptied): nothing is written twice.
        wholeRows[0].outcome = CallOutcome(status: .failed, errorKind: "timeout", error: "old", durationMilliseconds: 9)
        _ = try FinishLogTests.abandonedLog(state, wholeRows)
        let store = try HistoryStore(path: state.databasePath)
        let calls = try store.calls(matching: TraceFilter())
        #expect(calls.count == 2)
        #expect(calls.allSatisfy { $0.status == .succeeded })
    }

    @Test func theDecoderReadsBothRecordVersionsAndRefusesATornStart() throws {
        let plain = FinishRecord(rowID: 7, outcome: Self.result, context: ["a": "1"], finishedMilliseconds: 3)
        let whole = HistoryStore.wholeRow(Self.call("c9", at: 4), Self.result, ["a": "1"], now: 3)
        #expect(FinishRecordCoding.encode(plain)[8] == 1)
        let bytes = FinishRecordCoding.encode(whole)
        #expect(bytes[8] == 3)  // this build writes version 3: the start and the call's origin
        #expect(FinishRecordCoding.decodeAll(FinishRecordCoding.encode(plain) + bytes).records == [plain, whole])
        // A version-2 record (a build before front ends were recorded) reads as the same call without an origin.
        var older = Array(bytes[8..<(bytes.count - 3)])
        older[0] = 2
        let version2 = withUnsafeBytes(of: UInt32(older.count).littleEndian, Array.init)
            + withUnsafeBytes(of: FinishRecordCoding.checksum(older).littleEndian, Array.init) + older
        var expected = whole
        expected.start?.frontEnd = nil
        expected.start?.client = nil
        expected.start?.sessionTitle = nil
        #expect(FinishRecordCoding.decodeAll(version2).records == [expected])
        // The origin and the session title travel whole.
        var fromMCP = Self.call("c10", at: 5)
        fromMCP.frontEnd = "mcp"
        fromMCP.client = "Claude Desktop"
        let titled = HistoryStore.wholeRow(fromMCP, Self.result, [:], now: 6, sessionTitle: "mcp: Claude Desktop")
        #expect(FinishRecordCoding.decodeAll(FinishRecordCoding.encode(titled)).records == [titled])
        #expect(titled.start?.frontEnd == "mcp" && titled.start?.client == "Claude Desktop")
        // A version-3 body cut inside its start, with a matching checksum: fields run past the record.
        var body = Array(bytes[8..<(bytes.count - 6)])
        body[0] = 3
        let forged = withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init)
            + withUnsafeBytes(of: FinishRecordCoding.checksum(body).littleEndian, Array.init) + body
        #expect(FinishRecordCoding.decodeAll(forged).problem?.reason.contains("past the end of the record") == true)
    }
}

extension HistoryStore {
    /// The call ids of `session`'s failed or interrupted calls, oldest first (as `trace --failed` finds them).
    func calls(failedOnlyIn session: String) throws -> [String] {
        try calls(matching: TraceFilter(sessionID: session, failedOnly: true)).reversed().map(\.callID)
    }

    /// Deletes the rows of call `callID` (a test's way to stage a state).
    func deleteCall(callID: String) throws {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in try database.statement("DELETE FROM skill_calls WHERE call_id = ?").run([.text(callID)]) }
        }
    }
}
