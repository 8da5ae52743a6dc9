import Foundation
import SkillJSON
import SkillStore

/// The `--json` shapes of `history`, `trace`, `inspect` and `debug` (docs/cli.md) and the text forms of
/// the same records.
enum HistoryJSON {
    static func session(_ record: SessionRecord) -> JSONValue {
        [
            "id": .string(record.id), "title": .string(record.title), "model": .string(record.model),
            "created": .string(timestamp(record.createdMilliseconds)),
            "last_active": .string(timestamp(record.lastActiveMilliseconds)),
            "messages": .int(Int64(record.messageCount)), "calls": .int(Int64(record.callCount)),
        ]
    }

    static func message(_ record: MessageRecord) -> JSONValue {
        var object: JSONObject = [
            "position": .int(Int64(record.position)), "role": .string(record.role), "content": .string(record.content),
            "created": .string(timestamp(record.createdMilliseconds)),
        ]
        if let calls = record.toolCallsJSON { object["tool_calls"] = (try? JSONValue(parsing: calls)) ?? .string(calls) }
        if let id = record.toolCallID { object["tool_call_id"] = .string(id) }
        return .object(object)
    }

    static func call(_ record: CallRecord) -> JSONValue {
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

    static func stats(_ stats: SkillCallStats) -> JSONValue {
        [
            "calls": .int(Int64(stats.calls)), "failures": .int(Int64(stats.failures)),
            "p50_ms": stats.p50Milliseconds.map(JSONValue.double) ?? .null,
            "p95_ms": stats.p95Milliseconds.map(JSONValue.double) ?? .null,
        ]
    }

    /// The front end that made a call: rows written before schema version 5 were all made by `chat`.
    static func frontEnd(of record: CallRecord) -> String { record.frontEnd ?? "chat" }

    /// One trace line: time, status, skill, front end (and client), duration, then the summary or the error.
    static func callLine(_ record: CallRecord) -> String {
        let duration = record.durationMilliseconds.map(milliseconds) ?? "—"
        let detail =
            record.error.map { "\(record.errorKind ?? "error"): \($0)" } ?? record.summary ?? ""
        let status = record.status.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
        let origin = "[" + frontEnd(of: record) + (record.client.map { ": " + $0 } ?? "") + "]"
        return "\(timestamp(record.startedMilliseconds))  \(status) \(record.skillID) \(origin)  \(duration)  \(detail)"
    }

    /// `count` and `noun`, the noun in the plural unless the count is 1 ("1 call", "2 calls", "0 calls").
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// "12.3 ms", "1.52 s".
    static func milliseconds(_ value: Double) -> String {
        value < 1000 ? String(format: "%.1f ms", value) : String(format: "%.2f s", value / 1000)
    }

    /// ISO 8601 UTC with milliseconds.
    static func timestamp(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return formatter.string(from: date)
    }

    nonisolated(unsafe) private static let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    /// Parses `--since` values: `90s`, `15m`, `1h`, `2d`, `1w` → milliseconds.
    static func duration(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000]
        guard let unit = text.last, let factor = units[unit], let number = Int64(text.dropLast()), number >= 0 else {
            throw UsageError("--since needs a number and a unit (s, m, h, d, w), e.g. 1h or 30m, not '\(text)'")
        }
        return number * factor
    }
}
