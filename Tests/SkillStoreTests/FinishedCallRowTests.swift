import Foundation
@testable import SkillStore
import SkillJSON
import Testing

/// A server's row writer logs each call's whole row from its parts (``FinishedCallRow``, its JSON serialized
/// straight into the log): the bytes must be those of the record the same row made before
/// (``HistoryStore/wholeRow``), and the row committed from them the same, field by field.
@Suite struct FinishedCallRowTests {
    /// Rows covering every field: arguments as a value and as text, a result and none, the statuses whose
    /// duration is not stored, texts absent, empty, non-ASCII and with quotes.
    static let cases: [FinishedCallRow] = {
        var rich = FinishedCallRow(
            callID: "mcp-1-1", sessionID: "mcp-1", skillID: "bench.echo", arguments: .value(["text": "hé \"q\"", "n": [1, 2.5, nil, true]]),
            status: .succeeded, startedMilliseconds: 700, durationMilliseconds: 2.25)
        rich.result = ["é": "\"q\" ✓", "list": []]
        rich.summary = "✓ done"
        rich.pluginVersion = "1.2.0"
        rich.pluginSHA256 = String(repeating: "ab", count: 32)
        rich.workerPID = 4242
        rich.idempotencyKey = "s/echo/1"
        rich.frontEnd = "mcp"
        rich.client = "bench"
        rich.sessionTitle = "mcp: bench"
        var refused = FinishedCallRow(
            callID: "2", sessionID: "mcp-1", skillID: "notes.add", arguments: .text("not json {"), status: .refused,
            startedMilliseconds: 800, durationMilliseconds: 0)
        refused.errorKind = "denied"
        refused.error = "not allowed"
        refused.sessionTitle = "mcp: bench"
        var failed = FinishedCallRow(
            callID: "ü-3", sessionID: "mcp-1", skillID: "x.y", arguments: .value([:]), status: .failed, startedMilliseconds: 900,
            durationMilliseconds: 1000.5)
        failed.errorKind = "timeout"
        failed.error = ""
        failed.client = ""
        failed.frontEnd = "call"
        failed.sessionTitle = "skillhost call"
        var replayed = FinishedCallRow(
            callID: "4", sessionID: "mcp-1", skillID: "x.y", arguments: .text(""), status: .replayed, startedMilliseconds: 1,
            durationMilliseconds: 0.001)
        replayed.result = .null
        replayed.sessionTitle = "mcp: bench"
        return [rich, refused, failed, replayed]
    }()

    @Test func aRowsBytesAreThoseOfItsRecord() {
        var bytes: [UInt8] = [9, 9]  // records are appended after what the buffer holds
        var json: [UInt8] = [1, 2, 3]  // scratch left over from an earlier row
        var expected: [UInt8] = [9, 9]
        for row in Self.cases {
            FinishRecordCoding.encode(row, finishedMilliseconds: 1234, into: &bytes, json: &json)
            FinishRecordCoding.encode(row.record(finishedMilliseconds: 1234), into: &expected)
        }
        #expect(bytes == expected)
        #expect(FinishRecordCoding.decodeAll(Array(bytes.dropFirst(2))).records == Self.cases.map { $0.record(finishedMilliseconds: 1234) })
    }

    @Test func aRowsRecordIsTheWholeRowOfItsCallAndOutcome() {
        let row = Self.cases[0]
        let call = CallRecord(
            callID: row.callID, sessionID: row.sessionID, skillID: row.skillID, pluginVersion: row.pluginVersion,
            pluginSHA256: row.pluginSHA256, argumentsJSON: #"{"text":"hé \"q\"","n":[1,2.5,null,true]}"#, status: .started,
            startedMilliseconds: 700, idempotencyKey: row.idempotencyKey, frontEnd: "mcp", client: "bench")
        var outcome = CallOutcome(
            status: .succeeded, resultJSON: #"{"é":"\"q\" ✓","list":[]}"#, summary: "✓ done", durationMilliseconds: 2.25)
        outcome.workerPID = 4242
        #expect(row.record(finishedMilliseconds: 5) == HistoryStore.wholeRow(call, outcome, [:], now: 5, sessionTitle: "mcp: bench"))
    }

    @Test func rowsLoggedFromTheirPartsAreCommittedAsTheirRecordsWouldBe() throws {
        let logged = TempState(), direct = TempState()
        let viaRows = try HistoryStore(path: logged.databasePath, clock: { 1000 })
        let viaRecords = try HistoryStore(path: direct.databasePath, clock: { 1000 })
        for row in Self.cases {
            #expect(try !viaRows.logRow(row))
            let record = row.record(finishedMilliseconds: 1000)
            let start = try #require(record.start)
            try viaRecords.recordFinish(
                of: CallRecord(
                    callID: start.callID, sessionID: start.sessionID, skillID: start.skillID, argumentsJSON: start.argumentsJSON,
                    status: .started, startedMilliseconds: 0, frontEnd: start.frontEnd, client: start.client),
                with: record.outcome, sessionTitle: start.sessionTitle, committing: false)
        }
        #expect(viaRows.pendingFinishCount == Self.cases.count)
        try viaRows.flushFinishes()
        try viaRecords.flushFinishes()
        let rows = try LoggedRowTests.rows(viaRows)
        #expect(rows.map(\.callID) == Self.cases.map(\.callID))
        #expect(rows == (try LoggedRowTests.rows(viaRecords)))
        #expect(rows[0].argumentsJSON == #"{"text":"hé \"q\"","n":[1,2.5,null,true]}"#)
        #expect(rows[0].resultJSON == #"{"é":"\"q\" ✓","list":[]}"#)
        #expect(rows[1].argumentsJSON == "not json {" && rows[1].resultJSON == nil && rows[1].durationMilliseconds == nil)
        #expect(try viaRows.session(id: "mcp-1")?.title == "mcp: bench")
        // The rows belong to the session the commit made: deleting it deletes them.
        #expect(try viaRows.deleteSession(id: "mcp-1"))
        #expect(try viaRows.calls(matching: TraceFilter()).isEmpty)
    }
}
