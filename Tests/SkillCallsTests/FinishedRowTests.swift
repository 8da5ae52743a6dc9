import Foundation
import SkillHostCore
import SkillJSON
import SkillStore
import Testing

@testable import SkillCalls

/// A server's row writer builds each call's row from its parts (``CallRows/finishedRow(of:_:sessionID:startedAt:sessionTitle:)``,
/// its JSON left as values for the store to serialize): the row in the database must be the one the call's
/// record made before (``CallRows/started(_:sessionID:at:)`` and ``CallRows/ending(of:_:)``), field by field,
/// with every secret and `writeOnly` field redacted.
@Suite struct FinishedRowTests {
    static let secret = "sk-live-0123456789abcdef"

    static func cases() -> [(RecordedCall, ToolCallOutcome)] {
        let echo = ToolCallerTests.tool("text.echo")
        var pinned = ToolCallerTests.tool("bank.pay", permission: .write)
        pinned.parameters = ["type": "object", "properties": ["pin": ["type": "string", "writeOnly": true], "to": ["type": "string"]]]
        func call(_ tool: SkillTool, _ arguments: JSONValue?, text: String = "{}", id: String) -> RecordedCall {
            var request = ToolCallerTests.request(tool, arguments.map(CallArguments.value) ?? .text(text), origin: .mcp(client: "bench"))
            request.callID = id
            return RecordedCall(request, arguments: arguments, sessionID: "s")
        }
        var keyed = call(echo, ["text": "hi"], id: "1")
        keyed.idempotencyKey = "s/text.echo/1"
        keyed.workerPID = 4242
        var replayed = ToolCallOutcome(tool: echo, result: .success(["text": "again"]), seconds: 0.000_5)
        replayed.replayed = true
        return [
            (keyed, ToolCallOutcome(tool: echo, result: .success(["text": "hi"]), seconds: 0.003_509)),
            // Secrets by name, by value and as a bearer credential, in the arguments and in the result.
            (
                call(echo, ["text": .string("key \(secret)"), "Api-Key": "abc", "nested": [["password": "p"]]], id: "2"),
                ToolCallOutcome(
                    tool: echo, result: .success(["header": "Bearer abcdefgh12345678", "log": [.string("used \(secret)")], "token": "t"]),
                    seconds: 0.01)
            ),
            // A field the tool's schema marks writeOnly.
            (call(pinned, ["pin": "1234", "to": "bob"], id: "3"), ToolCallOutcome(tool: pinned, result: .success(["paid": true]), seconds: 1)),
            // Arguments that are not JSON: the text as given, scrubbed.
            (call(echo, nil, text: "not json \(secret)", id: "4"), ToolCallOutcome(tool: echo, result: .failure(HostError(.invalidArguments, "bad")), seconds: 0)),
            (call(echo, ["text": "x"], id: "5"), ToolCallOutcome(tool: echo, result: .failure(HostError(.skillFailed, "failed with \(secret)")), seconds: 0.2)),
            (call(pinned, ["to": "bob"], id: "6"), ToolCallOutcome(tool: pinned, result: .failure(HostError(.denied, "no")), seconds: 3, refused: true)),
            (call(echo, ["text": "again"], id: "7"), replayed),
            (call(echo, [:], id: "8"), ToolCallOutcome(tool: echo, result: .success(.array([1, "two", nil])), seconds: 0.25)),
        ]
    }

    @Test func rowsFromTheirPartsEqualRowsFromTheirRecordsAndKeepNoSecret() throws {
        let folder = TestPackage.temporaryDirectory("skillcalls-finished-rows")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let viaParts = try HistoryStore(path: folder + "/parts.sqlite3")
        let viaRecords = try HistoryStore(path: folder + "/records.sqlite3")
        let rows = CallRows(
            redactor: SecretRedactor(secrets: [Self.secret]),
            provenance: ["text.echo": PluginProvenance(version: "1.0.0", sha256: String(repeating: "c", count: 64))])
        for (call, outcome) in Self.cases() {
            _ = try viaParts.logRow(rows.finishedRow(of: call, outcome, sessionID: "s", startedAt: 500, sessionTitle: "mcp: bench"))
            var ending = rows.ending(of: call, outcome)
            ending.startedMilliseconds = 500
            ending.idempotencyKey = call.idempotencyKey
            let record = rows.started(call, sessionID: "s", at: 500)
            try viaRecords.recordFinish(of: record, with: ending, sessionTitle: "mcp: bench", committing: false)
        }
        try viaParts.flushFinishes()
        try viaRecords.flushFinishes()
        func stored(_ store: HistoryStore) throws -> [CallRecord] {
            try store.calls(matching: TraceFilter()).sorted { $0.rowID < $1.rowID }.map { row in
                var row = row
                row.rowID = 0
                return row
            }
        }
        let written = try stored(viaParts)
        #expect(written.count == Self.cases().count)
        #expect(written == (try stored(viaRecords)))
        let texts = written.flatMap { [$0.argumentsJSON, $0.resultJSON ?? "", $0.summary ?? "", $0.error ?? ""] }
        #expect(!texts.contains { $0.contains(Self.secret) || $0.contains("abcdefgh12345678") || $0.contains("1234") })
        #expect(written[1].argumentsJSON.contains(#""Api-Key":"[redacted]""#) && written[1].argumentsJSON.contains(#""password":"[redacted]""#))
        #expect(written[1].resultJSON?.contains(#""token":"[redacted]""#) == true)
        #expect(written[2].argumentsJSON == #"{"pin":"[redacted]","to":"bob"}"#)
        #expect(written[0].argumentsJSON == #"{"text":"hi"}"# && written[0].resultJSON == #"{"text":"hi"}"#)
        #expect(written[0].idempotencyKey == "s/text.echo/1" && written[0].workerPID == 4242 && written[0].pluginVersion == "1.0.0")
        #expect(written.map(\.status) == [.succeeded, .succeeded, .succeeded, .failed, .failed, .refused, .replayed, .succeeded])
    }
}
