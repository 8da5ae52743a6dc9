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

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// Logs `record` (one `write`) and keeps it for the next transaction. Throws when the log cannot be
    /// written; the caller then commits the finish itself.
    func add(_ record: FinishRecord) throws(StoreError) {
        if log == nil { log = try FinishLog(databasePath: databasePath) }
        try log?.append(FinishRecordCoding.encode(record))
        pending.append(record)
    }

    /// Inside a write transaction: writes the pending finishes.
    func apply(to database: SQLiteDatabase) throws(StoreError) {
        for record in pending { try Self.write(record, onlyIfRunning: false, database) }
    }

    /// After the transaction that applied them committed: they are in the database.
    func committed() {
        guard !pending.isEmpty else { return }
        pending.removeAll(keepingCapacity: true)
        log?.clear()
    }

    /// The store closes: its log goes (call after the pending finishes were committed).
    func close() {
        if pending.isEmpty { log?.remove() }
        log = nil
    }

    /// Writes one finish. A recovered record (`onlyIfRunning`) only finishes a call still `started` (or
    /// marked `interrupted`): one already finished means the record was committed before its log was
    /// emptied, and writing it again could turn back a newer context value.
    static func write(_ record: FinishRecord, onlyIfRunning: Bool, _ database: SQLiteDatabase) throws(StoreError) {
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
        if let key = outcome.idempotencyKey { values.append(.text(key)) }
        values.append(.integer(record.rowID))
        let sql = (keyed ? keyedUpdateSQL : updateSQL) + (onlyIfRunning ? " AND status IN ('started', 'interrupted')" : "")
        try database.statement(sql).run(values)
        guard !record.context.isEmpty, database.changes > 0 else { return }
        // The call's session is read inside the upsert (no round trip, no copy of the id).
        let upsert = try database.statement(contextOfCallSQL)
        for (key, value) in record.context.sorted(by: { $0.key < $1.key }) {
            try upsert.run([.text(key), .text(value), .integer(record.finishedMilliseconds), .integer(record.rowID)])
        }
    }

    /// How a finish stores a context key in its call's session.
    static let contextOfCallSQL = """
        INSERT INTO session_context(session_id, key, value, updated_ms) SELECT session_id, ?, ?, ? FROM skill_calls WHERE id = ?
            ON CONFLICT(session_id, key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms
        """

    /// How a call row is finished.
    static let updateSQL = """
        UPDATE skill_calls SET status = ?, result = ?, summary = ?, error_kind = ?, error = ?, duration_ms = ?,
            started_ms = coalesce(?, started_ms), plugin_version = coalesce(?, plugin_version),
            plugin_sha256 = coalesce(?, plugin_sha256), worker_pid = coalesce(?, worker_pid) WHERE id = ?
        """

    /// How a call row is finished when the finish brings its idempotency key.
    static let keyedUpdateSQL = """
        UPDATE skill_calls SET status = ?, result = ?, summary = ?, error_kind = ?, error = ?, duration_ms = ?,
            started_ms = coalesce(?, started_ms), plugin_version = coalesce(?, plugin_version),
            plugin_sha256 = coalesce(?, plugin_sha256), worker_pid = coalesce(?, worker_pid), idempotency_key = ? WHERE id = ?
        """
}
