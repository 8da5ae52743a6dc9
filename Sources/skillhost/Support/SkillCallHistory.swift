import SkillJSON
import SkillStore

/// What `inspect SKILL_ID` adds from the history: call count, failures, p50/p95 duration and the recent
/// calls. A history that cannot be opened becomes a note, not a failure of `inspect`.
struct SkillCallHistory {
    var stats: SkillCallStats?
    var recent: [CallRecord] = []
    var problem: String?

    static func load(_ skillID: String, _ parsed: ParsedArguments) -> SkillCallHistory {
        do {
            let store = try HistoryOptions.open(parsed, registry: HistoryOptions.registry(parsed))
            return SkillCallHistory(
                stats: try store.stats(skillID: skillID), recent: try store.calls(matching: TraceFilter(skillID: skillID, limit: 5)))
        } catch {
            return SkillCallHistory(problem: "\(error)")
        }
    }

    /// The skill's JSON with a `"history"` member.
    func adding(to detail: JSONValue) -> JSONValue {
        guard case .object(var object) = detail else { return detail }
        if let stats, case .object(var body) = HistoryJSON.stats(stats) {
            body["recent"] = .array(recent.map(HistoryJSON.call))
            object["history"] = .object(body)
        } else {
            object["history"] = ["error": .string(problem ?? "unavailable")]
        }
        return .object(object)
    }

    /// The lines under the skill's description.
    var text: String {
        guard let stats else { return "  history:     unavailable (\(problem ?? "no database"))" }
        let p50 = stats.p50Milliseconds.map(HistoryJSON.milliseconds) ?? "—"
        let p95 = stats.p95Milliseconds.map(HistoryJSON.milliseconds) ?? "—"
        var lines = ["  calls:       \(stats.calls) recorded, \(stats.failures) failed, p50 \(p50), p95 \(p95)"]
        if !recent.isEmpty { lines.append("  recent calls:") }
        lines += recent.map { "    " + HistoryJSON.callLine($0) }
        return lines.joined(separator: "\n")
    }
}
