/// The finishes a ``HistoryStore`` has logged but not yet committed (see ``HistoryStore/recordFinish(_:with:context:)``):
/// the ``FinishLog`` that keeps them across a crash of the process, and the records themselves, which
/// ride along with the next write transaction of the store (``SQLiteDatabase/write(_:)`` applies them
/// first). Not thread-safe: used under the store's lock.
final class FinishJournal {
    let databasePath: String
    private var log: FinishLog?
    private(set) var pending: [FinishRecord] = []
    /// Whether a timed flush is already on its way.
    var flushScheduled = false
    /// The bytes of the record being logged: one buffer, reused for every record.
    private var encoded: [UInt8] = []
    /// The sessions the pending records make (``FinishRecord/start`` with a title), kept as they are added
    /// so a commit does not walk the records for them.
    private var sessions = Sessions()

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// Logs `record` (one `write`) and keeps it for the next transaction. Throws when the log cannot be
    /// written; the caller then commits the finish itself.
    func add(_ record: FinishRecord) throws(StoreError) {
        if log == nil { log = try FinishLog(databasePath: databasePath) }
        encoded.removeAll(keepingCapacity: true)
        FinishRecordCoding.encode(record, into: &encoded)
        try log?.append(encoded)
        sessions.note(record)
        pending.append(record)
    }

    /// Whether the log has grown past half of what it keeps mapped: its records should be committed now, or
    /// the next ones are written with a system call each.
    var wantsCommit: Bool { (log?.size ?? 0) >= FinishLog.mappedSize / 2 }

    /// Inside a write transaction: writes the pending finishes.
    func apply(to database: SQLiteDatabase) throws(StoreError) {
        try sessions.make(database)
        for record in pending { try Self.write(record, onlyIfRunning: false, database) }
    }

    /// Makes the sessions that `records` name with a title and that do not exist yet (a recovered log).
    static func makeSessions(of records: [FinishRecord], _ database: SQLiteDatabase) throws(StoreError) {
        var sessions = Sessions()
        for record in records { sessions.note(record) }
        try sessions.make(database)
    }

    /// The sessions records make: those of `skillhost call` and `mcp`, which have no messages, are made
    /// with their first row and marked active at their last finish, once per session per transaction,
    /// before the rows that refer to them.
    struct Sessions {
        private var titles: [String: (title: String, last: Int64)] = [:]

        mutating func note(_ record: FinishRecord) {
            guard let title = record.start?.sessionTitle, let id = record.start?.sessionID else { return }
            if let known = titles[id], known.last >= record.finishedMilliseconds { return }
            titles[id] = (title, record.finishedMilliseconds)
        }

        func make(_ database: SQLiteDatabase) throws(StoreError) {
            guard !titles.isEmpty else { return }
            let upsert = try database.statement(
                """
                INSERT INTO sessions(id, title, model, created_ms, last_active_ms) VALUES(?, ?, '', ?, ?)
                ON CONFLICT(id) DO UPDATE SET last_active_ms = max(last_active_ms, excluded.last_active_ms)
                """)
            for (id, session) in titles {
                try upsert.run([.text(id), .text(session.title), .integer(session.last), .integer(session.last)])
            }
        }

        mutating func removeAll() { titles.removeAll(keepingCapacity: true) }
    }

    /// After the transaction that applied them committed: they are in the database.
    func committed() {
        guard !pending.isEmpty else { return }
        pending.removeAll(keepingCapacity: true)
        sessions.removeAll()
        log?.clear()
    }

    /// The store closes: its log goes (call after the pending finishes were committed).
    func close() {
        if pending.isEmpty { log?.remove() }
        log = nil
    }

    /// Writes one finish, with the context keys it changed in the row's `context` column
    /// (``CallContextChanges``). A recovered record (`onlyIfRunning`) only finishes a call still `started` (or
    /// marked `interrupted`): one already finished means the record was committed before its log was
    /// emptied.
    static func write(_ record: FinishRecord, onlyIfRunning: Bool, _ database: SQLiteDatabase) throws(StoreError) {
        if let start = record.start { return try insert(record, start, onlyIfRunning: onlyIfRunning, database) }
        let outcome = record.outcome
        // The key is only assigned when there is one: assigning the column at all rewrites its index entry.
        let keyed = outcome.idempotencyKey != nil
        var values: [SQLValue] = [
            .text(outcome.status.rawValue), .optional(outcome.resultJSON), .optional(outcome.summary),
            .optional(outcome.errorKind), .optional(outcome.error), .real(outcome.durationMilliseconds),
            outcome.startedMilliseconds.map(SQLValue.integer) ?? .null,
            .optional(outcome.pluginVersion), .optional(outcome.pluginSHA256),
            outcome.workerPID.map(SQLValue.integer) ?? .null,
        ]
        // The context keys it changed ride in its row.
        values.append(.optional(CallContextChanges.encode(record.context, at: record.finishedMilliseconds)))
        if let key = outcome.idempotencyKey { values.append(.text(key)) }
        values.append(.integer(record.rowID))
        let sql = (keyed ? keyedUpdateSQL : updateSQL) + (onlyIfRunning ? " AND status IN ('started', 'interrupted')" : "")
        try database.statement(sql).run(values)
    }

    /// Writes the whole row of a call that had none while it ran (one insert: its assistant message stands
    /// for it until then, see ``HistoryStore/markUnfinishedCalls(session:)``). A recovered record finds the
    /// row when there is one already: it finishes it only while it is `started` or `interrupted`.
    static func insert(_ record: FinishRecord, _ start: CallStart, onlyIfRunning: Bool, _ database: SQLiteDatabase) throws(StoreError) {
        let outcome = record.outcome
        if onlyIfRunning,
            let existing = try database.statement(
                "SELECT id FROM skill_calls WHERE session_id = ? AND call_id = ? AND message_position IS ? ORDER BY id DESC LIMIT 1"
            ).rows([.text(start.sessionID), .text(start.callID), start.messagePosition.map(SQLValue.integer) ?? .null]).first?.first?.integer
        {
            var update = record
            update.rowID = existing
            update.start = nil
            return try write(update, onlyIfRunning: true, database)
        }
        try database.statement(insertSQL).run([
            .text(start.callID), .text(start.sessionID), start.messagePosition.map(SQLValue.integer) ?? .null, .text(start.skillID),
            .optional(outcome.pluginVersion), .optional(outcome.pluginSHA256), .text(start.argumentsJSON),
            .text(outcome.status.rawValue), .optional(outcome.resultJSON), .optional(outcome.summary), .optional(outcome.errorKind),
            .optional(outcome.error), .integer(outcome.startedMilliseconds ?? record.finishedMilliseconds),
            outcome.status == .interrupted || outcome.status == .refused ? .null : .real(outcome.durationMilliseconds), .optional(outcome.idempotencyKey), outcome.workerPID.map(SQLValue.integer) ?? .null,
            .optional(CallContextChanges.encode(record.context, at: record.finishedMilliseconds)),
            .optional(start.frontEnd), .optional(start.client),
        ])
    }

    /// How the row of a call finished before it had one is written.
    static let insertSQL = """
        INSERT INTO skill_calls(call_id, session_id, message_position, skill_id, plugin_version, plugin_sha256, arguments,
            status, result, summary, error_kind, error, started_ms, duration_ms, idempotency_key, worker_pid, context,
            front_end, client)
        VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// How a call row is finished.
    static let updateSQL = """
        UPDATE skill_calls SET status = ?, result = ?, summary = ?, error_kind = ?, error = ?, duration_ms = ?,
            started_ms = coalesce(?, started_ms), plugin_version = coalesce(?, plugin_version),
            plugin_sha256 = coalesce(?, plugin_sha256), worker_pid = coalesce(?, worker_pid), context = ? WHERE id = ?
        """

    /// How a call row is finished when the finish brings its idempotency key.
    static let keyedUpdateSQL = """
        UPDATE skill_calls SET status = ?, result = ?, summary = ?, error_kind = ?, error = ?, duration_ms = ?,
            started_ms = coalesce(?, started_ms), plugin_version = coalesce(?, plugin_version),
            plugin_sha256 = coalesce(?, plugin_sha256), worker_pid = coalesce(?, worker_pid), context = ?, idempotency_key = ?
            WHERE id = ?
        """
}
