import Foundation
import SkillJSON
import SkillStore

/// The `--json` shapes of `history`, `trace`, `inspect` and `debug` (docs/cli.md; SkillStore's ``RecordJSON``,
/// which `skillhost ui` shares) and the text forms of the same records.
enum HistoryJSON {
    static func session(_ record: SessionRecord) -> JSONValue { RecordJSON.session(record) }
    static func message(_ record: MessageRecord) -> JSONValue { RecordJSON.message(record) }
    static func call(_ record: CallRecord) -> JSONValue { RecordJSON.call(record) }
    static func stats(_ stats: SkillCallStats) -> JSONValue { RecordJSON.stats(stats) }
    static func frontEnd(of record: CallRecord) -> String { RecordJSON.frontEnd(of: record) }

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
    static func timestamp(_ milliseconds: Int64) -> String { RecordJSON.timestamp(milliseconds) }

    /// Parses `--since` values: `90s`, `15m`, `1h`, `2d`, `1w` → milliseconds.
    static func duration(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000]
        guard let unit = text.last, let factor = units[unit], let number = Int64(text.dropLast()), number >= 0 else {
            throw UsageError("--since needs a number and a unit (s, m, h, d, w), e.g. 1h or 30m, not '\(text)'")
        }
        return number * factor
    }
}
