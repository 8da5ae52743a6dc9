import Foundation
@testable import SkillStore
import Testing

/// Schema version 4: the context keys a call changed ride in its row (`skill_calls.context`) instead of an
/// upsert into `session_context`; a session's context is the newest value per key of both.
@Suite struct CallContextRowTests {
    static let result = CallOutcome(status: .succeeded, resultJSON: "1", durationMilliseconds: 1)

    /// Session "s" with an assistant message asking for call `id`; the store's clock reads `clock`.
    static func store(_ state: TempState, clock: Clock) throws -> (HistoryStore, Int) {
        let store = try HistoryStore(path: state.databasePath, clock: { clock.value })
        try store.createSession(id: "s")
        let position = try store.appendMessages(
            [MessageRecord(role: "assistant", content: "", toolCallsJSON: #"[{"id":"c1","name":"x_y","arguments":"{}"}]"#)], session: "s")
        return (store, position)
    }

    static func call(_ id: String, at position: Int) -> CallRecord {
        CallRecord(callID: id, sessionID: "s", messagePosition: position, skillID: "x.y", argumentsJSON: "{}", status: .started, startedMilliseconds: 1)
    }

    final class Clock: @unchecked Sendable {
        var value: Int64
        init(_ value: Int64) { self.value = value }
    }

    @Test func aFinishWritesItsContextInItsRowAndNoContextRow() throws {
        let state = TempState()
        let clock = Clock(1000)
        let (store, position) = try Self.store(state, clock: clock)
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result, context: ["last": #"{"a":"x\"y"}"#])
        try store.flushFinishes()
        #expect(try TempState.strings("SELECT count(*) FROM session_context", on: state.databasePath) == ["0"])
        #expect(
            try TempState.strings("SELECT context FROM skill_calls", on: state.databasePath)
                == [#"{"updated_ms":1000,"values":{"last":"{\"a\":\"x\\\"y\"}"}}"#])
        #expect(try store.context(session: "s") == ["last": #"{"a":"x\"y"}"#])
        // Another process reads the same.
        #expect(try HistoryStore(path: state.databasePath).context(session: "s") == ["last": #"{"a":"x\"y"}"#])
    }

    @Test func aCallWithoutContextChangesLeavesTheColumnEmpty() throws {
        let state = TempState()
        let (store, position) = try Self.store(state, clock: Clock(1000))
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result)
        let row = try store.startCall(Self.call("c2", at: position))
        try store.recordFinish(row, with: Self.result)
        try store.flushFinishes()
        #expect(try TempState.strings("SELECT count(*) FROM skill_calls WHERE context IS NULL", on: state.databasePath) == ["2"])
        #expect(try store.context(session: "s").isEmpty)
    }

    @Test func theNewestValueOfAKeyWinsWhereverItIs() throws {
        let state = TempState()
        let clock = Clock(1000)
        let (store, position) = try Self.store(state, clock: clock)
        try store.setContext(["k": "\"set first\"", "other": "1"], session: "s")
        clock.value = 2000
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result, context: ["k": "\"by the call\""])
        #expect(try store.context(session: "s") == ["k": "\"by the call\"", "other": "1"])
        // A later call of the same session, then a later direct write: each replaces the one before.
        clock.value = 3000
        let row = try store.startCall(Self.call("c2", at: position))
        try store.recordFinish(row, with: Self.result, context: ["k": "\"by the second call\""])
        #expect(try store.context(session: "s") == ["k": "\"by the second call\"", "other": "1"])
        clock.value = 4000
        try store.setContext(["k": "\"set last\""], session: "s")
        #expect(try store.context(session: "s") == ["k": "\"set last\"", "other": "1"])
        // setContext moved the calls' values into session_context first and cleared them from the rows.
        #expect(try TempState.strings("SELECT count(*) FROM skill_calls WHERE context IS NOT NULL", on: state.databasePath) == ["0"])
    }

    @Test func aClockSteppedBackDoesNotLetAnEarlierCallsValueWin() throws {
        let state = TempState()
        let clock = Clock(5000)
        let (store, position) = try Self.store(state, clock: clock)
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result, context: ["k": "\"first\""])
        clock.value = 4000  // the system clock was set back between the two calls
        try store.recordFinish(of: Self.call("c2", at: position), with: Self.result, context: ["k": "\"second\""])
        #expect(try store.context(session: "s") == ["k": "\"second\""])
        clock.value = 3000
        try store.setContext(["k": "\"third\""], session: "s")
        #expect(try store.context(session: "s") == ["k": "\"third\""])
    }

    @Test func aRecoveredOlderValueDoesNotReplaceANewerOne() throws {
        let state = TempState()
        let clock = Clock(5000)
        do {
            let (store, _) = try Self.store(state, clock: clock)
            try store.setContext(["k": "\"newer\""], session: "s")
        }
        // A process that died after finishing a call at 3000 (before the newer value was set) left its log.
        let record = HistoryStore.wholeRow(Self.call("c1", at: 0), Self.result, ["k": "\"older\"", "j": "2"], now: 3000)
        _ = try FinishLogTests.abandonedLog(state, [record])
        let store = try HistoryStore(path: state.databasePath, clock: { clock.value })
        #expect(try store.calls(matching: TraceFilter()).map(\.callID) == ["c1"])
        #expect(try store.context(session: "s") == ["k": "\"newer\"", "j": "2"])
    }

    @Test func resumingASessionMovesItsCallContextsIntoTheContextTable() throws {
        let state = TempState()
        let clock = Clock(1000)
        let (store, position) = try Self.store(state, clock: clock)
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result, context: ["k": "1"])
        clock.value = 1001
        try store.appendMessages(
            [MessageRecord(role: "assistant", content: "", toolCallsJSON: #"[{"id":"c2","name":"x_y","arguments":"{}"}]"#)], session: "s")
        try store.recordFinish(of: Self.call("c2", at: position + 1), with: Self.result, context: ["k": "2", "j": "3"])
        try store.markUnfinishedCalls(session: "s")
        #expect(try TempState.strings("SELECT count(*) FROM skill_calls WHERE context IS NOT NULL", on: state.databasePath) == ["0"])
        #expect(
            try TempState.strings("SELECT key || '=' || value || '@' || updated_ms FROM session_context ORDER BY key", on: state.databasePath)
                == ["j=3@1001", "k=2@1001"])
        #expect(try store.context(session: "s") == ["k": "2", "j": "3"])
    }

    @Test func aDamagedContextColumnIsAnErrorThatNamesTheRow() throws {
        let state = TempState()
        let (store, position) = try Self.store(state, clock: Clock(1000))
        try store.recordFinish(of: Self.call("c1", at: position), with: Self.result, context: ["k": "1"])
        try store.flushFinishes()
        try TempState.execute("UPDATE skill_calls SET context = '{\"values\":{\"k\":1}}'", on: state.databasePath)
        do {
            _ = try store.context(session: "s")
            Issue.record("a damaged context column was read")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.message.contains("skill_calls row 1 (session s)"))
            #expect(error.message.contains("move it aside"))
        }
    }

    @Test func theColumnFormatReadsBackByteForByte() throws {
        let values = ["plain": "1", "quoted": #""a \"b\" \\ c""#, "lines": "\"x\ny\t\u{1}\"", "ünï": "\"ç€😀\""]
        let text = try #require(CallContextChanges.encode(values, at: 42))
        #expect(CallContextChanges.decode(text) == CallContextChanges(updatedMilliseconds: 42, values: values))
        #expect(CallContextChanges.encode([:], at: 42) == nil)
        // The worst case for the writer's capacity: many members whose every byte needs \u00XX, empty values,
        // the longest time stamp.
        var worst: [String: String] = [:]
        for index in 0..<40 { worst[String(repeating: "\u{1}", count: index)] = "" }
        let worstText = try #require(CallContextChanges.encode(worst, at: .min))
        #expect(CallContextChanges.decode(worstText) == CallContextChanges(updatedMilliseconds: .min, values: worst))
        for bad in ["", "{}", #"{"updated_ms":1}"#, #"{"updated_ms":"1","values":{}}"#, #"{"updated_ms":1,"values":{"k":1}}"#,
            #"{"updated_ms":1,"values":{},"more":0}"#]
        {
            #expect(CallContextChanges.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func newFilesUseTwoKiBPagesAndOldFilesKeepTheirs() throws {
        let fresh = TempState()
        _ = try HistoryStore(path: fresh.databasePath)
        #expect(try TempState.strings("PRAGMA page_size", on: fresh.databasePath) == ["2048"])
        let old = TempState()
        try TempState.execute(HistoryStoreTests.versionOneSchema, on: old.databasePath)
        let store = try HistoryStore(path: old.databasePath)
        #expect(store.schemaVersion == HistoryStore.currentSchemaVersion)
        #expect(try TempState.strings("PRAGMA page_size", on: old.databasePath) == ["4096"])
    }

    @Test func rowsOverAPageStillReadBack() throws {
        // With 2 KiB pages a row over about 500 bytes overflows: it must read back whole.
        let state = TempState()
        let (store, position) = try Self.store(state, clock: Clock(1000))
        let big = "\"" + String(repeating: "x", count: 10_000) + "\""
        var outcome = Self.result
        outcome.resultJSON = big
        try store.recordFinish(of: Self.call("c1", at: position), with: outcome, context: ["k": big])
        #expect(try store.calls(matching: TraceFilter()).first?.resultJSON == big)
        #expect(try store.context(session: "s") == ["k": big])
    }

    @Test func aVersionThreeFileKeepsItsContextWhenMigrated() throws {
        let state = TempState()
        try TempState.execute(
            HistoryStoreTests.versionOneSchema + HistoryStoreTests.versionTwoAdditions + """
                DROP INDEX skill_calls_skill; DROP INDEX skill_calls_session; DROP INDEX skill_calls_key;
                CREATE INDEX skill_calls_session_key ON skill_calls(session_id, idempotency_key);
                PRAGMA user_version = 3;
                INSERT INTO sessions VALUES('s', '', '', 1000, 2000);
                INSERT INTO session_context VALUES('s', 'k', '"kept"', 1500);
                """, on: state.databasePath)
        let clock = Clock(1000)
        let store = try HistoryStore(path: state.databasePath, clock: { clock.value })
        #expect(store.schemaVersion == HistoryStore.currentSchemaVersion)
        #expect(try store.context(session: "s") == ["k": "\"kept\""])
        // A call that finished before the stored value (by the clock) does not replace it; a later one does.
        try store.recordFinish(of: Self.call("c1", at: 0), with: Self.result, context: ["k": "\"older\""])
        #expect(try store.context(session: "s") == ["k": "\"kept\""])
        clock.value = 1500
        try store.recordFinish(of: Self.call("c2", at: 0), with: Self.result, context: ["k": "\"same time\""])
        #expect(try store.context(session: "s") == ["k": "\"same time\""])
    }
}
