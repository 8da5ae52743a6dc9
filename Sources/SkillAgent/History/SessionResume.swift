import SkillHostCore
import SkillJSON
import SkillStore

/// A stored session made ready to continue: its calls that were still running when the process died are
/// marked `interrupted`, every tool call of the transcript has its tool message again (from the recorded
/// result, or an "interrupted" error the model can act on), and the execution context is loaded.
public struct ResumedSession: Sendable {
    /// The session.
    public var session: SessionRecord
    /// The conversation to hand the model, oldest first.
    public var messages: [ChatMessage]
    /// The execution context skills stored.
    public var context: [String: JSONValue]
    /// Calls found unfinished (now marked `interrupted`).
    public var interruptedCalls: Int

    /// Loads session `id` from `store`.
    /// - Throws: ``StoreError`` `notFound` when there is no such session.
    public static func load(_ id: String, from store: HistoryStore, maxResultCharacters: Int = 4000) throws(StoreError) -> ResumedSession {
        guard let session = try store.session(id: id) else {
            throw StoreError(.notFound, "no session \"\(id)\" in \(store.path); run 'skillhost history' to see the sessions")
        }
        let interrupted = try store.markUnfinishedCalls(session: id)
        let records = try store.messages(session: id)
        let calls = try store.calls(matching: TraceFilter(sessionID: id, limit: 1_000_000))
        var byPlace: [String: CallRecord] = [:]
        for call in calls.reversed() { byPlace["\(call.messagePosition ?? -1)/\(call.callID)"] = call }
        let formatter = ToolResultFormatter(trimmer: ResultTrimmer(limit: maxResultCharacters))
        var answered = Set(records.compactMap(\.toolCallID))
        var messages: [ChatMessage] = []
        var pending: [(after: Int, messages: [ChatMessage])] = []
        for (index, record) in records.enumerated() {
            let message = ChatMessage(record)
            messages.append(message)
            guard message.role == .assistant, !message.toolCalls.isEmpty else { continue }
            // Tool messages answer the calls of the assistant message before them; fill in the missing ones
            // right after the answering messages that exist.
            var end = index + 1
            while end < records.count, records[end].role == "tool" { end += 1 }
            let missing = message.toolCalls.filter { !answered.contains($0.id) }
            guard !missing.isEmpty else { continue }
            let filled = missing.map { call -> ChatMessage in
                answered.insert(call.id)
                let stored = byPlace["\(record.position)/\(call.id)"]
                if let stored, stored.status == .succeeded || stored.status == .replayed, let text = stored.resultJSON,
                    let result = try? JSONValue(parsing: text)
                {
                    return .tool(callID: call.id, content: formatter.text(for: result))
                }
                return .tool(
                    callID: call.id,
                    content: formatter.text(
                        for: HostError(
                            .cancelled,
                            "the call was interrupted when skillhost stopped; it may or may not have taken effect, so check before repeating it",
                            skillID: stored?.skillID)))
            }
            // Existing tool messages of this reply come next in `records`; append the filled ones after them.
            pending.append((after: end - 1, messages: filled))
        }
        // Insert filled-in tool messages (from the last place backwards, so earlier indices stay valid).
        for (after, filled) in pending.reversed() { messages.insert(contentsOf: filled, at: after + 1) }
        var context: [String: JSONValue] = [:]
        for (key, text) in try store.context(session: id) {
            if let value = try? JSONValue(parsing: text) { context[key] = value }
        }
        return ResumedSession(session: session, messages: messages, context: context, interruptedCalls: interrupted)
    }
}
