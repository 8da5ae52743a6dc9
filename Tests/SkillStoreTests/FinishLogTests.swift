import Foundation
import Glibc
@testable import SkillStore
import Testing

/// Finishes recorded through the finish log (`HistoryStore.recordFinish`): on disk when the call returns,
/// committed with the next write or read or on their own, and recovered from a process that died.
@Suite struct FinishLogTests {
    static let result = CallOutcome(status: .succeeded, resultJSON: #"{"time":"12:00"}"#, summary: "12:00", durationMilliseconds: 1.5)

    /// A store with session "s" and one started call; returns the store and the call's row.
    static func storeWithStartedCall(_ state: TempState) throws -> (HistoryStore, Int64) {
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        let row = try store.startCall(
            CallRecord(callID: "c1", sessionID: "s", skillID: "clock.now", argumentsJSON: "{}", status: .started, startedMilliseconds: 1))
        return (store, row)
    }

    /// The finish logs beside the database.
    static func logs(_ state: TempState) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: state.directory)) ?? []).filter { $0.contains("-finishes-") }.sorted()
    }

    @Test func aRecordedFinishIsOnDiskAtOnceAndCommittedWithTheNextWrite() throws {
        let state = TempState()
        let (store, row) = try Self.storeWithStartedCall(state)
        var outcome = Self.result
        outcome.workerPID = 4242
        try store.recordFinish(row, with: outcome, context: ["last": "1"])
        #expect(store.pendingFinishCount == 1)
        // What a crash right now would leave: the record in the log file.
        let logs = Self.logs(state)
        #expect(logs.count == 1)
        let bytes = [UInt8](TempState.bytes(state.directory + "/" + logs[0]))
        let decoded = FinishRecordCoding.decodeAll(bytes)
        #expect(decoded.problem == nil)
        #expect(decoded.records.map(\.rowID) == [row])
        #expect(decoded.records.first?.outcome == outcome)
        #expect(decoded.records.first?.context == ["last": "1"])
        // Another connection does not see it yet; the next write of this store commits it.
        let other = try HistoryStore(path: state.databasePath)
        #expect(try other.calls(matching: TraceFilter()).first?.status == .started)
        try store.appendMessages([MessageRecord(role: "tool", content: "12:00", toolCallID: "c1")], session: "s")
        #expect(store.pendingFinishCount == 0)
        let call = try #require(try other.calls(matching: TraceFilter()).first)
        #expect(call.status == .succeeded)
        #expect(call.workerPID == 4242)
        #expect(try other.context(session: "s") == ["last": "1"])
    }

    @Test func theLogIsEmptiedOnceCommittedRecordsFillIt() throws {
        let state = TempState()
        let (store, row) = try Self.storeWithStartedCall(state)
        var big = Self.result
        big.resultJSON = "\"" + String(repeating: "x", count: FinishLog.truncateThreshold) + "\""
        try store.recordFinish(row, with: big)
        let log = state.directory + "/" + (try #require(Self.logs(state).first))
        #expect(FinishRecordCoding.decodeAll([UInt8](TempState.bytes(log))).records.map(\.outcome) == [big])
        try store.createSession(id: "t")
        let emptied = [UInt8](TempState.bytes(log))
        #expect(FinishRecordCoding.decodeAll(emptied) == ([], nil))
        #expect(emptied.allSatisfy { $0 == 0 }, "committed records are zeroed")
        #expect(try store.calls(matching: TraceFilter()).first?.resultJSON == big.resultJSON)
    }

    /// A record larger than the mapped part of the log is written after it; the log reads whole, and is
    /// cut back to its mapped size when emptied. (The log alone: a store would also commit on a timer.)
    @Test func aRecordLargerThanTheMapIsWrittenAfterIt() throws {
        let state = TempState()
        let log = try FinishLog(databasePath: state.databasePath)
        defer { log.remove() }
        let small = FinishRecord(rowID: 1, outcome: Self.result, context: [:], finishedMilliseconds: 3)
        var huge = small
        huge.rowID = 2
        huge.outcome.resultJSON = "\"" + String(repeating: "y", count: FinishLog.mappedSize + 1000) + "\""
        try log.append(FinishRecordCoding.encode(small))
        #expect(TempState.bytes(log.path).count == FinishLog.mappedSize, "the file is allocated at its mapped size")
        try log.append(FinishRecordCoding.encode(huge))
        let bytes = [UInt8](TempState.bytes(log.path))
        #expect(bytes.count > FinishLog.mappedSize)
        let decoded = FinishRecordCoding.decodeAll(bytes)
        #expect(decoded.problem == nil)
        #expect(decoded.records.map(\.rowID) == [1, 2])
        #expect(decoded.records.last == huge, "the large record reads back whole")
        log.clear()
        let emptied = [UInt8](TempState.bytes(log.path))
        #expect(emptied.count == FinishLog.mappedSize)
        #expect(emptied.allSatisfy { $0 == 0 })
        // The map is used again, from its start.
        try log.append(FinishRecordCoding.encode(small))
        #expect(FinishRecordCoding.decodeAll([UInt8](TempState.bytes(log.path))).records == [small])
        #expect(log.size == FinishRecordCoding.encode(small).count)
    }

    @Test func theDecoderStopsAtAZeroHeader() {
        let first = FinishRecord(rowID: 1, outcome: Self.result, context: [:], finishedMilliseconds: 3)
        let second = FinishRecord(rowID: 2, outcome: Self.result, context: ["k": "1"], finishedMilliseconds: 4)
        let records = FinishRecordCoding.encode(first) + FinishRecordCoding.encode(second)
        // Unwritten space after the records, and a log cleared from its start while older records remain.
        #expect(FinishRecordCoding.decodeAll(records + [UInt8](repeating: 0, count: 4096)) == ([first, second], nil))
        #expect(FinishRecordCoding.decodeAll(records + [0, 0, 0]) == ([first, second], nil))
        #expect(FinishRecordCoding.decodeAll([UInt8](repeating: 0, count: 8) + records) == ([], nil))
        // A header whose body was not written whole is still a damaged record, not the end.
        var torn = FinishRecordCoding.encode(second)
        for index in 8..<torn.count { torn[index] = 0 }
        #expect(FinishRecordCoding.decodeAll(records + torn).problem?.reason.contains("checksum") == true)
    }

    @Test func readsOfTheSameStoreSeeRecordedFinishes() throws {
        let state = TempState()
        let (store, row) = try Self.storeWithStartedCall(state)
        try store.recordFinish(row, with: Self.result)
        #expect(try store.calls(idempotencyKey: "none", session: "s").isEmpty)
        #expect(try store.calls(matching: TraceFilter()).first?.status == .succeeded)
        #expect(store.pendingFinishCount == 0)
    }

    @Test func aFinishWithNothingAfterItIsCommittedOnItsOwn() throws {
        let state = TempState()
        let (store, row) = try Self.storeWithStartedCall(state)
        try store.recordFinish(row, with: Self.result)
        let other = try HistoryStore(path: state.databasePath)
        var status = try other.calls(matching: TraceFilter()).first?.status
        for _ in 0..<200 where status != .succeeded {
            usleep(10_000)
            status = try other.calls(matching: TraceFilter()).first?.status
        }
        #expect(status == .succeeded)
        #expect(store.pendingFinishCount == 0)
    }

    @Test func closingTheStoreCommitsAndRemovesItsLog() throws {
        let state = TempState()
        do {
            let (store, row) = try Self.storeWithStartedCall(state)
            try store.recordFinish(row, with: Self.result)
            #expect(Self.logs(state).count == 1)
        }
        #expect(Self.logs(state).isEmpty)
        #expect(try HistoryStore(path: state.databasePath).calls(matching: TraceFilter()).first?.status == .succeeded)
    }

    @Test func theLogOfALiveStoreIsNotTakenByAnother() throws {
        let state = TempState()
        let (store, row) = try Self.storeWithStartedCall(state)
        try store.recordFinish(row, with: Self.result)
        let other = try HistoryStore(path: state.databasePath)
        #expect(other.finishLogProblems.isEmpty)
        #expect(Self.logs(state).count == 1, "the owner still holds its log")
        #expect(try other.calls(matching: TraceFilter()).first?.status == .started)
        #expect(store.pendingFinishCount == 1)
    }

    /// Writes `records` (and `tail`) as the log of a process that died.
    static func abandonedLog(_ state: TempState, _ records: [FinishRecord], tail: [UInt8] = []) throws -> String {
        let path = state.databasePath + "-finishes-999999-0"
        let bytes = records.flatMap(FinishRecordCoding.encode) + tail
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test func theLogOfAProcessThatDiedIsCommittedByTheNextOpen() throws {
        let state = TempState()
        let row: Int64
        do {
            let (store, started) = try Self.storeWithStartedCall(state)
            row = started
            _ = store
        }
        let path = try Self.abandonedLog(state, [FinishRecord(rowID: row, outcome: Self.result, context: ["k": "\"v\""], finishedMilliseconds: 5)])
        let store = try HistoryStore(path: state.databasePath)
        #expect(store.finishLogProblems.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
        let call = try #require(try store.calls(matching: TraceFilter()).first)
        #expect(call.status == .succeeded)
        #expect(call.resultJSON == Self.result.resultJSON)
        #expect(try store.context(session: "s") == ["k": "\"v\""])
    }

    @Test func aRecoveredRecordNeverOverwritesACallThatAlreadyFinished() throws {
        let state = TempState()
        let row: Int64
        do {
            let (store, started) = try Self.storeWithStartedCall(state)
            row = started
            try store.finishCall(row, with: Self.result, context: ["k": "2"])
        }
        // A crash after the commit, before the log was emptied: the same finish with an older context value.
        let stale = CallOutcome(status: .failed, errorKind: "timeout", error: "old", durationMilliseconds: 9)
        _ = try Self.abandonedLog(state, [FinishRecord(rowID: row, outcome: stale, context: ["k": "1"], finishedMilliseconds: 5)])
        let store = try HistoryStore(path: state.databasePath)
        #expect(try store.calls(matching: TraceFilter()).first?.status == .succeeded)
        #expect(try store.context(session: "s") == ["k": "2"])
        #expect(Self.logs(state).isEmpty)
    }

    @Test func aTornLogKeepsItsReadableRecordsAndIsSetAside() throws {
        let state = TempState()
        var rows: [Int64] = []
        do {
            let (store, first) = try Self.storeWithStartedCall(state)
            rows.append(first)
            rows.append(
                try store.startCall(
                    CallRecord(callID: "c2", sessionID: "s", skillID: "clock.now", argumentsJSON: "{}", status: .started, startedMilliseconds: 2)))
        }
        let second = FinishRecordCoding.encode(FinishRecord(rowID: rows[1], outcome: Self.result, context: [:], finishedMilliseconds: 6))
        let path = try Self.abandonedLog(
            state, [FinishRecord(rowID: rows[0], outcome: Self.result, context: [:], finishedMilliseconds: 5)],
            tail: Array(second.prefix(second.count - 3)))
        let store = try HistoryStore(path: state.databasePath)
        #expect(store.finishLogProblems.count == 1)
        let problem = try #require(store.finishLogProblems.first)
        #expect(problem.contains(path + ".bad"))
        #expect(problem.contains("torn write"))
        #expect(FileManager.default.fileExists(atPath: path + ".bad"))
        let statuses = try store.calls(matching: TraceFilter()).reversed().map(\.status)
        #expect(statuses == [.succeeded, .started])
    }

    @Test func traceWarnsAboutALogItCouldNotReadWhole() throws {
        let state = TempState()
        do { _ = try Self.storeWithStartedCall(state) }
        let path = try Self.abandonedLog(state, [], tail: [200, 0, 0, 0, 1, 2, 3, 4, 1])
        let run = try CLI.run(["trace", "--state", state.directory])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("skillhost: warning: \(path).bad: a finished call's record at byte 0 cannot be read"), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: path + ".bad"))
    }

    @Test func theDecoderRefusesDamagedRecords() throws {
        let record = FinishRecord(rowID: 7, outcome: Self.result, context: ["a": "1"], finishedMilliseconds: 3)
        let bytes = FinishRecordCoding.encode(record)
        #expect(FinishRecordCoding.decodeAll(bytes).records == [record])
        var flipped = bytes
        flipped[bytes.count - 2] ^= 0x40
        #expect(FinishRecordCoding.decodeAll(flipped).problem?.reason.contains("checksum") == true)
        // A body whose checksum matches but whose status is unknown.
        var body = Array(bytes[8...])
        let status = Array("succeeded".utf8)
        let at = try #require(body.indices.first { Array(body[$0..<min(body.count, $0 + status.count)]) == status })
        body.replaceSubrange(at..<at + status.count, with: Array("succeedex".utf8))
        var forged = bytes.prefix(4) + withUnsafeBytes(of: FinishRecordCoding.checksum(body).littleEndian, Array.init)
        forged += body
        #expect(FinishRecordCoding.decodeAll(Array(forged)).problem?.reason.contains("unknown call status") == true)
    }
}
