import SkillJSON

extension HistoryStore {
    /// What an unfinished call's row says.
    static let interruptedError = "the process stopped while the call ran; it may or may not have taken effect"

    /// Marks the calls of `sessionID` that did not finish as `interrupted` (the process that ran them is
    /// gone), in one transaction: rows still `started`, and the calls an assistant message asked for that
    /// have neither a row nor a tool message (a call's row is written with its finish; until then the
    /// message's `tool_calls` entry, with its skill and idempotency key, stands for it). Returns how many
    /// there were.
    @discardableResult
    public func markUnfinishedCalls(session sessionID: String) throws(StoreError) -> Int {
        let now = clock()
        return try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement(
                    "UPDATE skill_calls SET status = 'interrupted', error_kind = 'interrupted', error = ? WHERE session_id = ? AND status = 'started'"
                ).run([.text(Self.interruptedError), .text(sessionID)])
                var marked = database.changes
                let outcome = CallOutcome(status: .interrupted, errorKind: "interrupted", error: Self.interruptedError, durationMilliseconds: 0)
                for call in try Self.unrecordedCalls(session: sessionID, now: now, database) {
                    try FinishJournal.write(Self.wholeRow(call, outcome, [:], now: now), onlyIfRunning: false, database)
                    marked += 1
                }
                // A resumed session's call contexts move to `session_context`, so reading it stays short.
                try Self.foldCallContexts(session: sessionID, database)
                return marked
            }
        }
    }

    /// The calls assistant messages of `sessionID` asked for that have no row and no tool message, as
    /// `interrupted` rows.
    static func unrecordedCalls(session sessionID: String, now: Int64, _ database: SQLiteDatabase) throws(StoreError) -> [CallRecord] {
        var recorded = Set<String>()
        for row in try database.statement("SELECT message_position, call_id FROM skill_calls WHERE session_id = ?").rows([.text(sessionID)]) {
            recorded.insert("\(row[0].integer ?? -1)/\(row[1].text ?? "")")
        }
        var missing: [CallRecord] = []
        var asked: [CallRecord] = []  // the latest assistant message's calls not answered yet
        let messages = try database.statement(
            "SELECT position, role, tool_calls, tool_call_id, created_ms FROM messages WHERE session_id = ? ORDER BY position"
        ).rows([.text(sessionID)])
        for message in messages {
            switch message[1].text {
            case "assistant":
                missing += asked
                asked = []
                guard let text = message[2].text, case .array(let items)? = try? JSONValue(parsing: text) else { continue }
                let position = message[0].integer ?? 0
                for item in items {
                    guard let id = item["id"]?.stringValue, !recorded.contains("\(position)/\(id)") else { continue }
                    asked.append(
                        CallRecord(
                            callID: id, sessionID: sessionID, messagePosition: Int(position),
                            skillID: item["skill_id"]?.stringValue ?? item["name"]?.stringValue ?? "",
                            argumentsJSON: item["arguments"]?.stringValue ?? "{}", status: .interrupted,
                            startedMilliseconds: message[4].integer ?? now,
                            idempotencyKey: item["idempotency_key"]?.stringValue))
                }
            case "tool":
                let answered = message[3].text
                asked.removeAll { $0.callID == answered }
            default:
                continue
            }
        }
        return missing + asked
    }
}
