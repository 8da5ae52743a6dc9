extension HistoryStore {
    /// The execution context of `sessionID`: key → JSON text. Each key has the newest of its values: the
    /// one in `session_context` and those the session's calls changed (their rows' `context` column,
    /// ``CallContextChanges``); on equal times a call's value wins over `session_context`, a later call's
    /// over an earlier one's.
    public func context(session sessionID: String) throws(StoreError) -> [String: String] {
        try reading { database throws(StoreError) in
            // Both tables from one snapshot: another process may fold the calls' values meanwhile.
            try database.snapshot { () throws(StoreError) in try Self.readContext(session: sessionID, database) }
        }
    }

    /// Stores context `values` (key → JSON text) of `sessionID` in one transaction.
    public func setContext(_ values: [String: String], session sessionID: String) throws(StoreError) {
        guard !values.isEmpty else { return }
        let now = contextStamp()
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                // The session's call contexts go to `session_context` first, so none of them outlives this newer value.
                try Self.foldCallContexts(session: sessionID, database)
                try Self.writeContext(values, session: sessionID, now: now, database)
            }
        }
    }

    /// Moves the context changes of `sessionID`'s calls into `session_context` (keeping the newer value per
    /// key) and clears them from the rows, in the caller's write transaction. Returns how many calls had some.
    @discardableResult
    static func foldCallContexts(session sessionID: String, _ database: SQLiteDatabase) throws(StoreError) -> Int {
        let changes = try callContexts(session: sessionID, database)
        guard !changes.isEmpty else { return 0 }
        let upsert = try database.statement(
            "INSERT INTO session_context(session_id, key, value, updated_ms) VALUES(?, ?, ?, ?) ON CONFLICT(session_id, key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms WHERE excluded.updated_ms >= session_context.updated_ms"
        )
        for change in changes {
            for (key, value) in change.values.sorted(by: { $0.key < $1.key }) {
                try upsert.run([.text(sessionID), .text(key), .text(value), .integer(change.updatedMilliseconds)])
            }
        }
        try database.statement("UPDATE skill_calls SET context = NULL WHERE session_id = ? AND context IS NOT NULL").run([.text(sessionID)])
        return changes.count
    }

    /// The context changes of `sessionID`'s calls, oldest first (by time, then row).
    static func callContexts(session sessionID: String, _ database: SQLiteDatabase) throws(StoreError) -> [CallContextChanges] {
        var changes: [(row: Int64, change: CallContextChanges)] = []
        for row in try database.statement("SELECT id, context FROM skill_calls WHERE session_id = ? AND context IS NOT NULL")
            .rows([.text(sessionID)])
        {
            let id = row[0].integer ?? 0
            guard let text = row[1].text, let change = CallContextChanges.decode(text) else {
                throw StoreError(
                    .corrupt,
                    "\(database.path): skill_calls row \(id) (session \(sessionID)) has a context column that is not {\"updated_ms\": N, \"values\": {…}}; the file is damaged: move it aside (mv '\(database.path)' '\(database.path).bad') to start a new history, or pass --state DIR")
            }
            changes.append((id, change))
        }
        changes.sort { ($0.change.updatedMilliseconds, $0.row) < ($1.change.updatedMilliseconds, $1.row) }
        return changes.map(\.change)
    }

    static func readContext(session sessionID: String, _ database: SQLiteDatabase) throws(StoreError) -> [String: String] {
        var values: [String: (value: String, updated: Int64)] = [:]
        for row in try database.statement("SELECT key, value, updated_ms FROM session_context WHERE session_id = ?").rows([.text(sessionID)]) {
            if let key = row[0].text, let value = row[1].text { values[key] = (value, row[2].integer ?? 0) }
        }
        for change in try callContexts(session: sessionID, database) {
            for (key, value) in change.values where values[key].map({ change.updatedMilliseconds >= $0.updated }) ?? true {
                values[key] = (value, change.updatedMilliseconds)
            }
        }
        return values.mapValues(\.value)
    }

    static func writeContext(_ values: [String: String], session: String, now: Int64, _ database: SQLiteDatabase) throws(StoreError) {
        let upsert = try database.statement(
            "INSERT INTO session_context(session_id, key, value, updated_ms) VALUES(?, ?, ?, ?) ON CONFLICT(session_id, key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms")
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try upsert.run([.text(session), .text(key), .text(value), .integer(now)])
        }
    }
}
