import SkillStore

/// Where a stored session stands, read from its messages and calls (the `debug` view's "agent state").
public enum SessionSnapshot {
    /// One of: `empty`, `finished` (the last message is an answer), `cancelled` (the last turn was stopped,
    /// Ctrl-C, before its answer), `failed` (the last turn ended without an answer: the model failed),
    /// `thinking` (a request or tool results wait for the model), `executingSkill` (the last assistant
    /// message's calls are running, or recorded as running), `interrupted` (the last run stopped with calls
    /// unfinished).
    public static func state(messages: [MessageRecord], calls: [CallRecord]) -> String {
        guard let last = messages.last else { return "empty" }
        if last.role == "assistant", last.toolCallsJSON == nil {
            if last.content == AgentConfiguration.cancelledNote { return "cancelled" }
            if last.content.hasPrefix(AgentConfiguration.failedNotePrefix) { return "failed" }
        }
        let lastCalls = calls.filter { $0.messagePosition == messages.last(where: { $0.role == "assistant" })?.position }
        if lastCalls.contains(where: { $0.status == .started }) { return "executingSkill" }
        if lastCalls.contains(where: { $0.status == .interrupted }) { return "interrupted" }
        // Calls asked for and not answered yet: they run (their rows are written as they finish).
        if last.role == "assistant", let asked = last.toolCallsJSON, asked != "[]" { return "executingSkill" }
        if last.role == "assistant", last.toolCallsJSON == nil { return "finished" }
        return "thinking"
    }
}
