import CSQLite
import CSQLiteBatch
import Glibc

/// One SQLite connection: opened read-write, `busy_timeout` set, prepared statements kept and reused, writes
/// wrapped in `BEGIN IMMEDIATE` transactions (so a waiting writer goes through the busy handler instead of
/// failing with `SQLITE_BUSY` when it upgrades a read lock). Not thread-safe: ``HistoryStore`` holds it
/// behind a lock.
final class SQLiteDatabase {
    let path: String
    private let handle: OpaquePointer
    private var statements: [StatementKey: SQLiteStatement] = [:]

    /// The VFS files are opened with: `skillhost-wal-batch` (Sources/CSQLiteBatch: a WAL transaction reaches
    /// the kernel in one `pwrite` instead of two per page, with the same bytes and the same guarantees), or
    /// SQLite's default when it could not be registered.
    static let vfsName: String? = skillhost_sqlite_batch_register() == SQLITE_OK ? SKILLHOST_SQLITE_BATCH_VFS : nil

    /// Milliseconds a write waits for another process's lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens (creating when missing) `path`. Only reads happen here: the file is not changed yet.
    init(path: String) throws(StoreError) {
        self.path = path
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, Self.vfsName)
        guard code == SQLITE_OK, let pointer else {
            let detail = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let pointer { sqlite3_close_v2(pointer) }
            throw StoreError(
                .cannotOpen, "\(path): cannot open the history database (\(detail)); check the folder's permissions or pass --state DIR",
                code: code)
        }
        handle = pointer
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The cached statement for `sql`, prepared on first use.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[StatementKey(sql: sql)] { return cached }
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else { throw error(code, doing: "prepare") }
        let statement = SQLiteStatement(handle: pointer, database: self)
        statements[StatementKey(sql: sql)] = statement
        return statement
    }

    /// Runs one or more statements without parameters (schema changes, pragmas).
    func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, doing: "run") }
    }

    /// Runs a pragma or query that returns one value.
    func scalar(_ sql: String) throws(StoreError) -> SQLValue {
        try statement(sql).rows().first?.first ?? .null
    }

    /// Finishes logged but not committed yet: every transaction writes them first.
    var journal: FinishJournal?

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction (after the ``journal``'s pending finishes): committed
    /// when it returns, rolled back when it throws.
    func write<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try statement("BEGIN IMMEDIATE").run()
        do {
            try journal?.apply(to: self)
            let value = try body()
            try statement("COMMIT").run()
            journal?.committed()
            return value
        } catch {
            _ = try? statement("ROLLBACK").run()
            throw error
        }
    }

    /// Runs `body`'s reads in one (deferred) transaction: they see one snapshot of the file.
    func snapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try statement("BEGIN").run()
        do {
            let value = try body()
            try statement("COMMIT").run()
            return value
        } catch {
            _ = try? statement("ROLLBACK").run()
            throw error
        }
    }

    /// Rows changed by the last write.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The row id of the last row inserted on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The error for result `code`, with the file, the cause and what to do.
    func error(_ code: Int32, doing action: String) -> StoreError {
        let detail = String(cString: sqlite3_errmsg(handle))
        switch code & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StoreError(
                .busy,
                "\(path): another skillhost held the history database for over \(Self.busyTimeoutMilliseconds / 1000) s (\(detail)); try again when it is done",
                code: code)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return StoreError(.corrupt, Self.corruptMessage(path, detail), code: code)
        default:
            return StoreError(.sqlite, "\(path): cannot \(action) the history database (\(detail), code \(code))", code: code)
        }
    }

    /// What a damaged file's error says.
    static func corruptMessage(_ path: String, _ detail: String) -> String {
        "\(path) is not a readable SkillHost history database (\(detail)); it was left untouched: move it aside (mv '\(path)' '\(path).bad') to start a new history, or pass --state DIR"
    }
}
