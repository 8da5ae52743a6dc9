extension HistoryStore {
    /// Records that a call started; returns its row id for ``finishCall(_:with:context:)``. Without a
    /// `messagePosition` the call is linked to the session's latest message (the assistant message that
    /// asked for it: tool messages are written after the calls).
    @discardableResult
    public func startCall(_ call: CallRecord) throws(StoreError) -> Int64 {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in try Self.insertCall(call, database) }
        }
    }

    /// Inserts one call row; returns its row id.
    static func insertCall(_ call: CallRecord, _ database: SQLiteDatabase) throws(StoreError) -> Int64 {
                try database.statement(
                    """
                    INSERT INTO skill_calls(call_id, session_id, message_position, skill_id, plugin_version, plugin_sha256,
                        arguments, status, started_ms, idempotency_key, worker_pid, front_end, client)
                    VALUES(?, ?, coalesce(?, (SELECT max(position) FROM messages WHERE session_id = ?)),
                        ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
                ).run([
                    .text(call.callID), .text(call.sessionID), call.messagePosition.map { .integer(Int64($0)) } ?? .null,
                    .text(call.sessionID), .text(call.skillID), .optional(call.pluginVersion), .optional(call.pluginSHA256),
                    .text(call.argumentsJSON), .text(call.status.rawValue), .integer(call.startedMilliseconds),
                    .optional(call.idempotencyKey), call.workerPID.map(SQLValue.integer) ?? .null,
                    .optional(call.frontEnd), .optional(call.client),
                ])
                // The session's last activity is its last message (written just before its calls).
                return database.lastInsertRowID
    }

    /// Records how call `rowID` ended and, in the same transaction, the session context keys it changed
    /// (JSON text per key).
    public func finishCall(_ rowID: Int64, with outcome: CallOutcome, context changes: [String: String] = [:]) throws(StoreError) {
        let record = FinishRecord(rowID: rowID, outcome: outcome, context: changes, finishedMilliseconds: contextStamp())
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in try FinishJournal.write(record, onlyIfRunning: false, database) }
        }
    }

    /// Calls matching `filter`, newest first.
    public func calls(matching filter: TraceFilter) throws(StoreError) -> [CallRecord] {
        var clauses: [String] = []
        var values: [SQLValue] = []
        if let skill = filter.skillID { clauses.append("skill_id = ?"); values.append(.text(skill)) }
        if let session = filter.sessionID { clauses.append("session_id = ?"); values.append(.text(session)) }
        if filter.failedOnly { clauses.append("status IN ('failed', 'interrupted')") }
        if let since = filter.sinceMilliseconds { clauses.append("started_ms >= ?"); values.append(.integer(since)) }
        let condition = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
        values.append(.integer(Int64(filter.limit)))
        let sql = Self.callSelect + condition + " ORDER BY id DESC LIMIT ?"
        return try reading { database throws(StoreError) in try database.statement(sql).rows(values).map(Self.call) }
    }

    /// The calls of session `sessionID` with idempotency key `key`, newest first (at most `limit`).
    public func calls(idempotencyKey key: String, session sessionID: String, limit: Int = 20) throws(StoreError) -> [CallRecord] {
        try reading { database throws(StoreError) in
            try database.statement(Self.keyLookupSQL).rows([.text(sessionID), .text(key), .integer(Int64(limit))]).map(Self.call)
        }
    }

    /// Appends `messages` like ``appendMessages(_:session:)`` and, in the same transaction, reads the calls
    /// of the session with each of `keys` (what ``calls(idempotencyKey:session:limit:)`` returns), so the
    /// idempotency decisions of the calls the last message asks for need no read transaction of their own.
    /// Returns the position of the first message and the calls by key.
    public func appendMessages(
        _ messages: [MessageRecord], session sessionID: String, lookingUp keys: [String], limit: Int = 20
    ) throws(StoreError) -> (first: Int, calls: [String: [CallRecord]]) {
        guard !messages.isEmpty else { return (-1, [:]) }
        let now = clock()
        return try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                let first = Int(try Self.insertMessages(messages, session: sessionID, now: now, database))
                var found: [String: [CallRecord]] = [:]
                for key in keys {
                    found[key] = try database.statement(Self.keyLookupSQL).rows([.text(sessionID), .text(key), .integer(Int64(limit))])
                        .map(Self.call)
                }
                return (first, found)
            }
        }
    }

    /// Call counts and durations of `skillID` over its latest `window` calls.
    public func stats(skillID: String, window: Int = 1000) throws(StoreError) -> SkillCallStats {
        let rows = try reading { database throws(StoreError) in
            try database.statement(
                "SELECT status, duration_ms FROM skill_calls WHERE skill_id = ? ORDER BY id DESC LIMIT ?"
            ).rows([.text(skillID), .integer(Int64(window))])
        }
        let failures = rows.filter { $0[0].text == "failed" || $0[0].text == "interrupted" }.count
        let durations = rows.filter { $0[0].text == "succeeded" || $0[0].text == "failed" }.compactMap { $0[1].real }.sorted()
        return SkillCallStats(
            calls: rows.count, failures: failures, p50Milliseconds: Self.percentile(durations, 0.50),
            p95Milliseconds: Self.percentile(durations, 0.95))
    }

    /// Nearest-rank percentile of sorted `values`.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let rank = Int((fraction * Double(values.count)).rounded(.up))
        return values[min(values.count, max(1, rank)) - 1]
    }

    static let callSelect = """
        SELECT id, call_id, session_id, message_position, skill_id, plugin_version, plugin_sha256, arguments, status,
            result, summary, error_kind, error, started_ms, duration_ms, idempotency_key, worker_pid, front_end, client
        FROM skill_calls
        """

    /// A session's calls with one idempotency key, newest first (made once: building the text per lookup
    /// cost an allocation and a copy of it, and hashing it again, on every non-idempotent call).
    static let keyLookupSQL = callSelect + " WHERE session_id = ? AND idempotency_key = ? ORDER BY id DESC LIMIT ?"

    static func call(_ row: [SQLValue]) -> CallRecord {
        CallRecord(
            rowID: row[0].integer ?? 0, callID: row[1].text ?? "", sessionID: row[2].text ?? "",
            messagePosition: row[3].integer.map(Int.init), skillID: row[4].text ?? "", pluginVersion: row[5].text,
            pluginSHA256: row[6].text, argumentsJSON: row[7].text ?? "{}",
            status: CallStatus(rawValue: row[8].text ?? "") ?? .interrupted, resultJSON: row[9].text, summary: row[10].text,
            errorKind: row[11].text, error: row[12].text, startedMilliseconds: row[13].integer ?? 0,
            durationMilliseconds: row[14].real, idempotencyKey: row[15].text, workerPID: row[16].integer,
            frontEnd: row[17].text, client: row[18].text)
    }
}
