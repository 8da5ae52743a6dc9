extension HistoryStore {
    /// The execution context of `sessionID`: key → JSON text.
    public func context(session sessionID: String) throws(StoreError) -> [String: String] {
        try reading { database throws(StoreError) in
            var values: [String: String] = [:]
            for row in try database.statement("SELECT key, value FROM session_context WHERE session_id = ?").rows([.text(sessionID)]) {
                if let key = row[0].text, let value = row[1].text { values[key] = value }
            }
            return values
        }
    }

    /// Stores context `values` (key → JSON text) of `sessionID` in one transaction.
    public func setContext(_ values: [String: String], session sessionID: String) throws(StoreError) {
        guard !values.isEmpty else { return }
        let now = clock()
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in try Self.writeContext(values, session: sessionID, now: now, database) }
        }
    }

    static func writeContext(_ values: [String: String], session: String, now: Int64, _ database: SQLiteDatabase) throws(StoreError) {
        let upsert = try database.statement(
            "INSERT INTO session_context(session_id, key, value, updated_ms) VALUES(?, ?, ?, ?) ON CONFLICT(session_id, key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms")
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try upsert.run([.text(session), .text(key), .text(value), .integer(now)])
        }
    }
}
