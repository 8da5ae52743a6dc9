import Glibc
import SkillJSON

/// The JSON shapes of stored records, the same for every reader: `skillhost history`, `trace`, `inspect`
/// and `debug` with `--json` (docs/cli.md), and `skillhost ui`'s sessions, traces and skill statistics.
public enum RecordJSON {
    /// A session: id, title, model, created, last active, message and call counts.
    public static func session(_ record: SessionRecord) -> JSONValue {
        [
            "id": .string(record.id), "title": .string(record.title), "model": .string(record.model),
            "created": .string(timestamp(record.createdMilliseconds)),
            "last_active": .string(timestamp(record.lastActiveMilliseconds)),
            "messages": .int(Int64(record.messageCount)), "calls": .int(Int64(record.callCount)),
        ]
    }

    /// A message: position, role, content, created, and its tool calls or the call it answers.
    public static func message(_ record: MessageRecord) -> JSONValue {
        var object: JSONObject = [
            "position": .int(Int64(record.position)), "role": .string(record.role), "content": .string(record.content),
            "created": .string(timestamp(record.createdMilliseconds)),
        ]
        if let calls = record.toolCallsJSON { object["tool_calls"] = (try? JSONValue(parsing: calls)) ?? .string(calls) }
        if let id = record.toolCallID { object["tool_call_id"] = .string(id) }
        return .object(object)
    }

    /// A recorded skill call.
    public static func call(_ record: CallRecord) -> JSONValue {
        var object: JSONObject = [
            "call_id": .string(record.callID), "session": .string(record.sessionID), "skill": .string(record.skillID),
            "status": .string(record.status.rawValue), "started": .string(timestamp(record.startedMilliseconds)),
            "duration_ms": record.durationMilliseconds.map(JSONValue.double) ?? .null,
            "arguments": (try? JSONValue(parsing: record.argumentsJSON)) ?? .string(record.argumentsJSON),
        ]
        object["message"] = record.messagePosition.map { .int(Int64($0)) } ?? .null
        object["plugin_version"] = record.pluginVersion.map(JSONValue.string) ?? .null
        object["plugin_sha256"] = record.pluginSHA256.map(JSONValue.string) ?? .null
        object["result"] = record.resultJSON.map { (try? JSONValue(parsing: $0)) ?? .string($0) } ?? .null
        object["summary"] = record.summary.map(JSONValue.string) ?? .null
        object["error"] =
            record.error.map { ["kind": .string(record.errorKind ?? "error"), "message": .string($0)] } ?? .null
        object["idempotency_key"] = record.idempotencyKey.map(JSONValue.string) ?? .null
        object["worker_pid"] = record.workerPID.map(JSONValue.int) ?? .null
        object["front_end"] = .string(frontEnd(of: record))
        object["client"] = record.client.map(JSONValue.string) ?? .null
        return .object(object)
    }

    /// A skill's call statistics: calls, failures, p50 and p95 in milliseconds.
    public static func stats(_ stats: SkillCallStats) -> JSONValue {
        [
            "calls": .int(Int64(stats.calls)), "failures": .int(Int64(stats.failures)),
            "p50_ms": stats.p50Milliseconds.map(JSONValue.double) ?? .null,
            "p95_ms": stats.p95Milliseconds.map(JSONValue.double) ?? .null,
        ]
    }

    /// The front end that made a call: rows written before schema version 5 were all made by `chat`.
    public static func frontEnd(of record: CallRecord) -> String { record.frontEnd ?? "chat" }

    /// ISO 8601 UTC with milliseconds: `2026-12-03T13:30:16.123Z`.
    public static func timestamp(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        let fraction = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(fraction), 3))Z"
    }
}
