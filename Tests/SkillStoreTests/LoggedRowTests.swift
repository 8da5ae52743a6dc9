import Foundation
@testable import SkillStore
import Testing

/// A commit writes the whole rows a server logged straight from their logged bytes (`LoggedRow`: texts
/// bound in place, no record or strings made per call). What reaches the database must be what a commit
/// of the same finish through the records writes, field by field, in the order the finishes were logged.
@Suite struct LoggedRowTests {
    /// Calls and outcomes covering every column: texts absent and present, empty, non-ASCII, quotes; the
    /// statuses whose duration is not stored; a message position; a worker pid; a start time missing.
    static let cases: [(CallRecord, CallOutcome, [String: String])] = {
        var rich = CallOutcome(status: .succeeded, resultJSON: #"{"é":"\"q\" ✓"}"#, summary: "✓ done", durationMilliseconds: 2.25)
        rich.pluginVersion = "1.2.0"
        rich.pluginSHA256 = String(repeating: "ab", count: 32)
        rich.workerPID = 4242
        rich.idempotencyKey = "s/echo/1"
        rich.startedMilliseconds = 700
        let refused = CallOutcome(status: .refused, errorKind: "denied", error: "not allowed", durationMilliseconds: 0)
        let interrupted = CallOutcome(status: .interrupted, durationMilliseconds: 5)
        let failed = CallOutcome(status: .failed, errorKind: "timeout", error: "", durationMilliseconds: 1000.5)
        func call(_ id: String, _ arguments: String, position: Int? = nil, frontEnd: String? = "mcp", client: String? = "bench") -> CallRecord {
            CallRecord(
                callID: id, sessionID: "s", messagePosition: position, skillID: "bench.echo", argumentsJSON: arguments, status: .started,
                startedMilliseconds: 900, frontEnd: frontEnd, client: client)
        }
        return [
            (call("1", #"{"text":"hello"}"#), rich, [:]),
            (call("2", "", frontEnd: nil, client: nil), refused, [:]),
            (call("3", "{}", position: 4), interrupted, [:]),
            (call("ü-4", #"{"a":[1,2,{"b":null}]}"#, client: ""), failed, [:]),
            // With context changes: not read in place, committed through its record, in its turn.
            (call("5", "{}"), rich, ["k": #""v""#]),
            (call("6", "{}"), CallOutcome(status: .succeeded, resultJSON: "null", durationMilliseconds: 0.001), [:]),
        ]
    }()

    /// The rows of `store` without their row ids, in row order.
    static func rows(_ store: HistoryStore) throws -> [CallRecord] {
        try store.calls(matching: TraceFilter()).sorted { $0.rowID < $1.rowID }.map { row in
            var row = row
            row.rowID = 0
            return row
        }
    }

    @Test func rowsCommittedFromTheirLoggedBytesEqualRowsCommittedFromTheirRecords() throws {
        let logged = TempState(), direct = TempState()
        let viaLog = try HistoryStore(path: logged.databasePath, clock: { 1000 })
        let viaRecords = try HistoryStore(path: direct.databasePath, clock: { 1000 })
        for store in [viaLog, viaRecords] { try store.createSession(id: "s") }
        for (call, outcome, context) in Self.cases {
            try viaLog.recordFinish(of: call, with: outcome, context: context, sessionTitle: "mcp: bench", committing: false)
            try viaRecords.finishCall(of: call, with: outcome, context: context)
        }
        #expect(viaLog.pendingFinishCount == Self.cases.count)
        try viaLog.flushFinishes()
        #expect(viaLog.pendingFinishCount == 0)
        let expected = try Self.rows(viaRecords)
        #expect(expected.count == Self.cases.count)
        #expect(expected.map(\.callID) == Self.cases.map(\.0.callID))
        #expect(try Self.rows(viaLog) == expected)
        #expect(try viaLog.context(session: "s") == ["k": #""v""#])
    }

    @Test func rowsInsertedSeveralToAStatementKeepEveryFieldAndTheirOrder() throws {
        // More rows than one insert takes, a row with context changes in the middle (it ends a group), and a
        // tail that is not a whole group: every count of rows per statement is used.
        let logged = TempState(), direct = TempState()
        let viaLog = try HistoryStore(path: logged.databasePath, clock: { 1000 })
        let viaRecords = try HistoryStore(path: direct.databasePath, clock: { 1000 })
        for store in [viaLog, viaRecords] { try store.createSession(id: "s") }
        let total = FinishJournal.rowsPerInsert * 2 + 15
        var callIDs: [String] = []
        for index in 0..<total {
            var (call, outcome, context) = Self.cases[index % Self.cases.count]
            call.callID = "\(index)-\(call.callID)"
            if index != FinishJournal.rowsPerInsert + 3 { context = [:] } else { context = ["k": "\(index)"] }
            callIDs.append(call.callID)
            try viaLog.recordFinish(of: call, with: outcome, context: context, sessionTitle: "mcp: bench", committing: false)
            try viaRecords.finishCall(of: call, with: outcome, context: context)
        }
        try viaLog.flushFinishes()
        let expected = try Self.rows(viaRecords)
        #expect(expected.map(\.callID) == callIDs)
        #expect(try Self.rows(viaLog) == expected)
        #expect(try viaLog.context(session: "s") == ["k": "\(FinishJournal.rowsPerInsert + 3)"])
    }

    @Test func aBatchMixingFinishesOfExistingRowsKeepsEveryFinish() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath, clock: { 1000 })
        try store.createSession(id: "s")
        let started = try store.startCall(
            CallRecord(callID: "old", sessionID: "s", skillID: "clock.now", argumentsJSON: "{}", status: .started, startedMilliseconds: 1))
        let (call, outcome, _) = Self.cases[0]
        try store.recordFinish(of: call, with: outcome, committing: false)
        try store.recordFinish(started, with: CallOutcome(status: .failed, errorKind: "timeout", error: "late", durationMilliseconds: 3))
        try store.recordFinish(of: Self.cases[1].0, with: Self.cases[1].1, committing: false)
        try store.flushFinishes()
        let rows = try Self.rows(store)
        #expect(rows.map(\.callID) == ["old", call.callID, Self.cases[1].0.callID])
        #expect(rows.map(\.status) == [.failed, .succeeded, .refused])
        #expect(rows[0].error == "late")
    }

    @Test func aFinishTheLogCannotTakeIsNotKeptTwice() throws {
        // A record larger than the map goes to the file with a write of its own, and still commits once.
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath, clock: { 1000 })
        try store.createSession(id: "s")
        var big = Self.cases[0].1
        big.resultJSON = "\"" + String(repeating: "x", count: FinishLog.mappedSize) + "\""
        try store.recordFinish(of: Self.cases[0].0, with: big, committing: false)
        try store.recordFinish(of: Self.cases[1].0, with: Self.cases[1].1, committing: false)
        try store.flushFinishes()
        let rows = try Self.rows(store)
        #expect(rows.count == 2)
        #expect(rows.first?.resultJSON == big.resultJSON)
    }
}
