import CSQLite
import Synchronization

/// The finishes a ``HistoryStore`` has logged but not yet committed (see ``HistoryStore/recordFinish(_:with:context:)``):
/// the ``FinishLog`` that keeps them across a crash of the process, and the records themselves, which
/// ride along with the next write transaction of the store (``SQLiteDatabase/write(_:)`` applies them
/// first). Not thread-safe: used under the store's lock.
final class FinishJournal {
    let databasePath: String
    private var log: FinishLog?
    /// The pending records, encoded as the log holds them, one after the other: a commit reads whole rows
    /// in place from them (``LoggedRow``) and binds their texts where they lie, so keeping a finish until
    /// the commit copies no strings and makes no record. One buffer, its capacity kept between commits.
    private var pendingBytes: [UInt8] = []
    /// How many records ``pendingBytes`` holds.
    private(set) var pendingCount = 0
    /// Whether a timed flush is already on its way.
    var flushScheduled = false
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
        let start = pendingBytes.count
        FinishRecordCoding.encode(record, into: &pendingBytes)
        if let log, let failure = pendingBytes.withUnsafeBytes({ log.append(UnsafeRawBufferPointer(rebasing: $0[start...])) }) {
            pendingBytes.removeSubrange(start...)
            throw failure
        }
        sessions.note(record)
        pendingCount += 1
    }


    /// Scratch memory ``add(_:finishedMilliseconds:)`` serializes a row's JSON into (its capacity kept).
    private var json: [UInt8] = []

    /// ``add(_:)`` of a finished call's whole row, encoded straight from its parts. Returns whether the
    /// log now wants a commit (``wantsCommit``).
    func add(_ row: borrowing FinishedCallRow, finishedMilliseconds: Int64) throws(StoreError) -> Bool {
        if log == nil { log = try FinishLog(databasePath: databasePath) }
        let start = pendingBytes.count
        FinishRecordCoding.encode(row, finishedMilliseconds: finishedMilliseconds, into: &pendingBytes, json: &json)
        if let log, let failure = pendingBytes.withUnsafeBytes({ log.append(UnsafeRawBufferPointer(rebasing: $0[start...])) }) {
            pendingBytes.removeSubrange(start...)
            throw failure
        }
        if let title = row.sessionTitle { sessions.note(row.sessionID, title, finishedMilliseconds)}
        pendingCount += 1
        return wantsCommit
    }

    /// Whether the log has grown past half of what it keeps mapped: its records should be committed now, or
    /// the next ones are written with a system call each.
    var wantsCommit: Bool { (log?.size ?? 0) >= FinishLog.mappedSize / 2 }

    /// Inside a write transaction: writes the pending finishes.
    func apply(to database: SQLiteDatabase) throws(StoreError) {
        try sessions.make(database)
        guard pendingCount > 0 else { return }
        let bytes = pendingBytes
        let failure = bytes.withUnsafeBytes { buffer -> StoreError? in
            // Whole rows are inserted several to a statement (a statement's run per row was about a third of
            // the insert's cost), in log order: a record that is not such a row ends the group.
            var group: [LoggedRow] = []
            group.reserveCapacity(Self.rowsPerInsert)
            var offset = 0
            do throws(StoreError) {
                while offset < buffer.count {
                    let (row, next) = LoggedRow.read(buffer, at: offset)
                    if let row {
                        group.append(row)
                        if group.count == Self.rowsPerInsert { try Self.insert(&group, database) }
                    } else {
                        try Self.insert(&group, database)
                        // A finish of an existing row, or a row with context changes: decoded whole.
                        guard let (record, _) = try? FinishRecordCoding.decode(bytes, at: offset) else {
                            return StoreError(.corrupt, "\(databasePath): a pending finish at byte \(offset) of this process's log cannot be read back; this is a bug, report it")
                        }
                        try Self.write(record, onlyIfRunning: false, database)
                    }
                    offset = next
                }
                try Self.insert(&group, database)
            } catch {
                return error
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The most whole rows one insert statement writes (a power of two).
    static let rowsPerInsert = 16

    /// Inserts `rows` (in their order) with statements of ``rowsPerInsert``, 8, 4, 2 or 1 rows each that name
    /// only the columns the rows have (consecutive rows with the same columns share a statement; a column
    /// left out is NULL, and each one named costs the statement's program two steps per row), and empties
    /// the list.
    private static func insert(_ rows: inout [LoggedRow], _ database: SQLiteDatabase) throws(StoreError) {
        var start = 0
        while start < rows.count {
            let columns = rows[start].columns
            var end = start + 1
            while end < rows.count, end - start < rowsPerInsert, rows[end].columns == columns { end += 1 }
            var count = rowsPerInsert
            while count > end - start { count /= 2 }
            let statement = try database.statement(insertSQL(columns: columns, rows: count))
            try statement.run { handle in
                let width = Int32(columns.nonzeroBitCount)
                for index in 0..<count { rows[start + index].bind(to: handle, from: Int32(index) * width) }
            }
            start += count
        }
        rows.removeAll(keepingCapacity: true)
    }

    /// ``insertSQL``'s columns, in order (the bits of ``LoggedRow/columns``).
    static let insertColumnNames = [
        "call_id", "session_id", "message_position", "skill_id", "plugin_version", "plugin_sha256", "arguments", "status", "result",
        "summary", "error_kind", "error", "started_ms", "duration_ms", "idempotency_key", "worker_pid", "context", "front_end", "client",
    ]

    /// The inserts made so far, by columns and row count (made once each: a server's rows mostly have the same
    /// columns). Used under the store's lock.
    private static let insertSQLs = Mutex<[Int: String]>([:])

    /// The insert of `count` rows (a power of two up to ``rowsPerInsert``) naming the columns in `columns`.
    static func insertSQL(columns: UInt32, rows count: Int) -> String {
        let key = Int(columns) << 8 | count
        if let sql = insertSQLs.withLock({ $0[key] }) { return sql }
        let names = insertColumnNames.indices.filter { columns & (1 << $0) != 0 }.map { insertColumnNames[$0] }
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        let sql = "INSERT INTO skill_calls(" + names.joined(separator: ", ") + ") VALUES" + Array(repeating: row, count: count).joined(separator: ", ")
        insertSQLs.withLock { $0[key] = sql }
        return sql
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
        /// The session noted last, kept out of ``titles`` until another one is noted: a server's rows are all
        /// of one session, and each is noted without hashing its id.
        private var latest: (id: String, title: String, last: Int64)?

        mutating func note(_ record: FinishRecord) {
            guard let title = record.start?.sessionTitle, let id = record.start?.sessionID else { return }
            note(id, title, record.finishedMilliseconds)
        }

        /// Session `id`, titled `title`, has a row finished at `finished`.
        mutating func note(_ id: String, _ title: String, _ finished: Int64) {
            if let known = latest, known.id == id {
                if known.last < finished { latest = (id, title, finished) }
                return
            }
            if let previous = latest { merge(previous.id, previous.title, previous.last) }
            if let known = titles.removeValue(forKey: id), known.last >= finished {
                latest = (id, known.title, known.last)
            } else {
                latest = (id, title, finished)
            }
        }

        private mutating func merge(_ id: String, _ title: String, _ last: Int64) {
            if let known = titles[id], known.last >= last { return }
            titles[id] = (title, last)
        }

        func make(_ database: SQLiteDatabase) throws(StoreError) {
            guard latest != nil || !titles.isEmpty else { return }
            let upsert = try database.statement(
                """
                INSERT INTO sessions(id, title, model, created_ms, last_active_ms) VALUES(?, ?, '', ?, ?)
                ON CONFLICT(id) DO UPDATE SET last_active_ms = max(last_active_ms, excluded.last_active_ms)
                """)
            for (id, session) in titles {
                try upsert.run([.text(id), .text(session.title), .integer(session.last), .integer(session.last)])
            }
            if let latest {
                try upsert.run([.text(latest.id), .text(latest.title), .integer(latest.last), .integer(latest.last)])
            }
        }

        mutating func removeAll() {
            titles.removeAll(keepingCapacity: true)
            latest = nil
        }
    }

    /// After the transaction that applied them committed: they are in the database.
    func committed() {
        guard pendingCount > 0 else { return }
        pendingBytes.removeAll(keepingCapacity: true)
        pendingCount = 0
        sessions.removeAll()
        log?.clear()
    }

    /// The store closes: its log goes (call after the pending finishes were committed).
    func close() {
        if pendingCount == 0 { log?.remove() }
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

extension LoggedRow {
    /// Whether the row's duration is stored (not for a call interrupted or refused).
    var storesDuration: Bool { !status.equals("interrupted") && !status.equals("refused") }

    /// The columns of ``FinishJournal/insertColumnNames`` the row has a value for (bit `i`: column `i`).
    var columns: UInt32 {
        // call_id, session_id, skill_id, arguments, status, started_ms: always.
        var columns: UInt32 = 1 << 0 | 1 << 1 | 1 << 3 | 1 << 6 | 1 << 7 | 1 << 12
        if messagePosition != nil { columns |= 1 << 2 }
        if pluginVersion != nil { columns |= 1 << 4 }
        if pluginSHA256 != nil { columns |= 1 << 5 }
        if resultJSON != nil { columns |= 1 << 8 }
        if summary != nil { columns |= 1 << 9 }
        if errorKind != nil { columns |= 1 << 10 }
        if error != nil { columns |= 1 << 11 }
        if storesDuration { columns |= 1 << 13 }
        if idempotencyKey != nil { columns |= 1 << 14 }
        if workerPID != nil { columns |= 1 << 15 }
        // 16, the context: a row with context changes is not read in place.
        if frontEnd != nil { columns |= 1 << 17 }
        if client != nil { columns |= 1 << 18 }
        return columns
    }

    /// Binds the row to the parameters of ``FinishJournal/insertSQL(columns:rows:)`` for its ``columns``
    /// (after the first `offset` of the statement's: the row's place in a multi-row insert), its texts in
    /// place (`SQLITE_STATIC`: valid while the logged bytes are, which outlive the statement's run).
    func bind(to handle: OpaquePointer, from offset: Int32 = 0) {
        var position = offset
        func text(_ text: Text?) {
            guard let text else { return }  // a column without a value is not in the statement
            position += 1
            sqlite3_bind_text(handle, position, text.start.assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
        }
        func integer(_ value: Int64?) {
            guard let value else { return }
            position += 1
            sqlite3_bind_int64(handle, position, value)
        }
        text(callID)
        text(sessionID)
        integer(messagePosition)
        text(skillID)
        text(pluginVersion)
        text(pluginSHA256)
        text(argumentsJSON)
        text(status)
        text(resultJSON)
        text(summary)
        text(errorKind)
        text(error)
        integer(startedMilliseconds ?? finishedMilliseconds)
        if storesDuration {
            position += 1
            sqlite3_bind_double(handle, position, durationMilliseconds)
        }
        text(idempotencyKey)
        integer(workerPID)
        text(frontEnd)
        text(client)
    }
}
