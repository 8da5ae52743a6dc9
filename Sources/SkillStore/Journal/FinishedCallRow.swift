import SkillJSON
import StableHash

/// A finished call's whole row as a server's row writer has it (``HistoryStore/logRow(_:)``): its texts as
/// they are and its arguments and result as JSON values, which are serialized straight into the finish
/// log, so logging a row makes no JSON string, ``CallRecord``, ``CallOutcome`` or ``FinishRecord``. The
/// bytes logged are those of ``record(finishedMilliseconds:)`` (what ``HistoryStore/recordFinish(of:with:context:sessionTitle:committing:)``
/// logs for the same row). Everything in it must be redacted already.
public struct FinishedCallRow: Sendable {
    /// The arguments as stored: a JSON value (redacted), or text that is not JSON (scrubbed).
    public enum Arguments: Sendable {
        case value(JSONValue)
        case text(String)
    }

    public var callID: String
    public var sessionID: String
    public var skillID: String
    public var arguments: Arguments
    public var status: CallStatus
    /// The result of a call that returned one (redacted); nil for a failure.
    public var result: JSONValue?
    public var summary: String?
    public var errorKind: String?
    public var error: String?
    public var startedMilliseconds: Int64
    public var durationMilliseconds: Double
    public var idempotencyKey: String?
    public var pluginVersion: String?
    public var pluginSHA256: String?
    public var workerPID: Int64?
    public var frontEnd: String?
    public var client: String?
    /// The title of the row's session, made with the row when it does not exist yet.
    public var sessionTitle: String?

    /// A row with these parts (no result, error, key, plugin, worker, front end or title).
    public init(
        callID: String, sessionID: String, skillID: String, arguments: Arguments, status: CallStatus, startedMilliseconds: Int64,
        durationMilliseconds: Double
    ) {
        self.callID = callID
        self.sessionID = sessionID
        self.skillID = skillID
        self.arguments = arguments
        self.status = status
        self.startedMilliseconds = startedMilliseconds
        self.durationMilliseconds = durationMilliseconds
    }

    /// The row as a record finished at `finishedMilliseconds`: what is logged for it, and what is committed
    /// at once when the log cannot be written.
    func record(finishedMilliseconds: Int64) -> FinishRecord {
        var outcome = CallOutcome(
            status: status, resultJSON: result?.serialized(), summary: summary, errorKind: errorKind, error: error,
            durationMilliseconds: durationMilliseconds)
        outcome.startedMilliseconds = startedMilliseconds
        outcome.idempotencyKey = idempotencyKey
        outcome.pluginVersion = pluginVersion
        outcome.pluginSHA256 = pluginSHA256
        outcome.workerPID = workerPID
        let argumentsJSON: String =
            switch arguments {
            case .value(let value): value.serialized()
            case .text(let text): text
            }
        return FinishRecord(
            rowID: 0, outcome: outcome, context: [:], finishedMilliseconds: finishedMilliseconds,
            start: CallStart(
                callID: callID, sessionID: sessionID, messagePosition: nil, skillID: skillID, argumentsJSON: argumentsJSON,
                frontEnd: frontEnd, client: client, sessionTitle: sessionTitle))
    }
}

extension FinishRecordCoding {
    /// Appends the bytes of `row`'s record (``FinishedCallRow/record(finishedMilliseconds:)``, version 3)
    /// to `bytes`, its arguments and result serialized into `json` (scratch memory the caller reuses) and
    /// copied from there: no string is made for them.
    static func encode(_ row: borrowing FinishedCallRow, finishedMilliseconds: Int64, into bytes: inout [UInt8], json: inout [UInt8]) {
        json.removeAll(keepingCapacity: true)
        switch row.arguments {
        case .value(let value): value.write(to: &json)
        case .text(var text): text.withUTF8 { json.append(contentsOf: $0) }
        }
        let argumentsCount = json.count
        row.result?.write(to: &json)
        let resultCount = json.count - argumentsCount
        let size = headerSize + 1 + 8 + 8 + 8 + 9 + Writer.size(row.workerPID) + Writer.size(row.status.rawValue)
            + (row.result == nil ? 1 : 5 + resultCount) + Writer.size(row.summary) + Writer.size(row.errorKind)
            + Writer.size(row.error) + Writer.size(row.idempotencyKey) + Writer.size(row.pluginVersion) + Writer.size(row.pluginSHA256) + 4
            + Writer.size(row.callID) + Writer.size(row.sessionID) + 1 + Writer.size(row.skillID) + 4 + argumentsCount
            + Writer.size(row.frontEnd) + Writer.size(row.client) + Writer.size(row.sessionTitle)
        let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { base.deallocate() }
        json.withUnsafeBytes { json in
            var writer = Writer(position: base + headerSize)
            writer.byte(versionWithOrigin)
            writer.uint64(0)  // the row id: none yet
            writer.uint64(UInt64(bitPattern: finishedMilliseconds))
            writer.uint64(row.durationMilliseconds.bitPattern)
            writer.optional(row.startedMilliseconds)
            writer.optional(row.workerPID)
            writer.text(row.status.rawValue)
            if row.result == nil {
                writer.byte(0)
            } else {
                writer.byte(1)
                writer.text(UnsafeRawBufferPointer(rebasing: json[argumentsCount...]))
            }
            writer.optional(row.summary)
            writer.optional(row.errorKind)
            writer.optional(row.error)
            writer.optional(row.idempotencyKey)
            writer.optional(row.pluginVersion)
            writer.optional(row.pluginSHA256)
            writer.uint32(0)  // no context changes
            writer.text(row.callID)
            writer.text(row.sessionID)
            writer.byte(0)  // no message position
            writer.text(row.skillID)
            writer.text(UnsafeRawBufferPointer(rebasing: json[..<argumentsCount]))
            writer.optional(row.frontEnd)
            writer.optional(row.client)
            writer.optional(row.sessionTitle)
            precondition(writer.position == base + size, "a finished call's record was measured wrong")
        }
        let bodyCount = size - headerSize
        let sum = FNV1a.hash32(UnsafeRawBufferPointer(start: base + headerSize, count: bodyCount))
        base.storeBytes(of: UInt32(bodyCount).littleEndian, as: UInt32.self)
        base.storeBytes(of: sum.littleEndian, toByteOffset: 4, as: UInt32.self)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: base, count: size))
    }
}
