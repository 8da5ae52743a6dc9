import Glibc
import SkillPosix
import Synchronization

/// The SQLite database of sessions, messages, skill calls and session context (docs/history.md). One file,
/// shared by every `skillhost` process of the user: WAL journal, a busy timeout, foreign keys on, every
/// write one `BEGIN IMMEDIATE` transaction. Thread-safe (one connection behind a lock; each method is one
/// short SQL exchange).
public final class HistoryStore: Sendable {
    /// The database file.
    public let path: String
    /// Guards ``connection``: one SQL exchange at a time.
    private let lock = Mutex(())
    /// Used only while ``lock`` is held.
    private nonisolated(unsafe) let connection: SQLiteDatabase
    /// Finishes logged but not yet committed. Used only while ``lock`` is held.
    private nonisolated(unsafe) let journal: FinishJournal
    /// Finish logs left by processes that died and could not be read whole (set aside as `….bad`): one
    /// line each, for the caller to show.
    public let finishLogProblems: [String]
    /// Unix milliseconds now (tests pass a fixed clock).
    let clock: @Sendable () -> Int64
    /// The latest time a context change was stamped with (see ``contextStamp()``).
    private let lastContextStamp = Mutex<Int64>(0)

    /// The file name inside the state folder.
    public static let fileName = "history.sqlite3"

    /// Opens (creating and migrating when needed) the database at `path`.
    /// - Throws: ``StoreError`` `corrupt` or `newerVersion` (the file is left untouched), `cannotOpen`.
    public convenience init(path: String) throws(StoreError) {
        try self.init(path: path, clock: HistoryStore.systemMilliseconds)
    }

    /// Opens the database at `path` with a clock (Unix milliseconds).
    public init(path: String, clock: @escaping @Sendable () -> Int64) throws(StoreError) {
        let existed = access(path, F_OK) == 0
        let database = try SQLiteDatabase(path: path)
        // The history holds conversations: only the user reads it (SQLite gives -wal/-shm the same mode
        // when it creates them, which happens after this).
        if !existed { chmod(path, 0o600) }
        try StoreSchema.prepare(database)
        finishLogProblems = Self.recoverFinishLogs(of: path, into: database)
        journal = FinishJournal(databasePath: path)
        database.journal = journal
        self.path = path
        self.connection = database
        self.clock = clock
    }

    deinit {
        try? flushFinishes()
        lock.withLock { _ in journal.close() }
    }

    /// Opens `<directory>/history.sqlite3`, creating the folder (mode 0700) when missing.
    public convenience init(directory: String) throws(StoreError) {
        do {
            try Posix.createDirectories(directory)
        } catch {
            throw StoreError(.cannotOpen, "\(error.path): cannot create the state folder (\(error.reason)); pass --state DIR")
        }
        try self.init(path: Self.databasePath(in: directory))
    }

    /// `<directory>/history.sqlite3`.
    static func databasePath(in directory: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + fileName
    }

    /// The schema version of the open file (``StoreSchema``'s newest after opening).
    public var schemaVersion: Int64 {
        (try? withDatabase { database throws(StoreError) in try database.scalar("PRAGMA user_version").integer }) ?? 0
    }

    /// Unix milliseconds by the store's clock.
    public func now() -> Int64 { clock() }

    /// The time a finish or a context write is stamped with: the clock, but never earlier than the last
    /// stamp of this store, so a clock stepped back between two calls cannot make the later one's context
    /// value lose to the earlier one's (a key's value is the newest by time, ``context(session:)``).
    func contextStamp() -> Int64 {
        let now = clock()
        return lastContextStamp.withLock { last in
            last = max(last, now)
            return last
        }
    }

    /// The newest schema version this build knows.
    public static var currentSchemaVersion: Int64 { StoreSchema.currentVersion }

    static let systemMilliseconds: @Sendable () -> Int64 = { Posix.unixMilliseconds() }

    /// Runs `body` with the connection held.
    func withDatabase<T: Sendable>(_ body: (SQLiteDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
        let connection = self.connection
        return try lock.withLock { _ throws(StoreError) in try body(connection) }
    }

    /// Runs `body` with the connection held, after committing logged finishes (so reads see them).
    func reading<T: Sendable>(_ body: (SQLiteDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
        let connection = self.connection
        let journal = self.journal
        return try lock.withLock { _ throws(StoreError) in
            if journal.pendingCount > 0 { try connection.write {} }
            return try body(connection)
        }
    }

    /// Runs `body` with the connection and the finish journal held.
    func withJournal<T: Sendable>(_ body: (SQLiteDatabase, FinishJournal) throws(StoreError) -> T) throws(StoreError) -> T {
        let connection = self.connection
        let journal = self.journal
        return try lock.withLock { _ throws(StoreError) in try body(connection, journal) }
    }

    // MARK: - Sessions

    /// Creates session `id` (nothing happens when it exists).
    public func createSession(id: String, title: String = "", model: String = "") throws(StoreError) {
        let now = clock()
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement(
                    "INSERT OR IGNORE INTO sessions(id, title, model, created_ms, last_active_ms) VALUES(?, ?, ?, ?, ?)"
                ).run([.text(id), .text(title), .text(model), .integer(now), .integer(now)])
            }
        }
    }

    /// Sessions, most recently active first.
    public func sessions(limit: Int = 1000) throws(StoreError) -> [SessionRecord] {
        try reading { database throws(StoreError) in
            try database.statement(Self.sessionSelect + " ORDER BY s.last_active_ms DESC, s.rowid DESC LIMIT ?")
                .rows([.integer(Int64(limit))]).map(Self.session)
        }
    }

    /// Session `id`, or nil.
    public func session(id: String) throws(StoreError) -> SessionRecord? {
        try reading { database throws(StoreError) in
            try database.statement(Self.sessionSelect + " WHERE s.id = ?").rows([.text(id)]).first.map(Self.session)
        }
    }

    /// The most recently active session, or nil when there is none.
    public func latestSession() throws(StoreError) -> SessionRecord? { try sessions(limit: 1).first }

    /// Deletes session `id` with its messages, calls and context. Returns whether it existed.
    @discardableResult
    public func deleteSession(id: String) throws(StoreError) -> Bool {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement("DELETE FROM sessions WHERE id = ?").run([.text(id)])
                return database.changes > 0
            }
        }
    }

    static let sessionSelect = """
        SELECT s.id, s.title, s.model, s.created_ms, s.last_active_ms,
               (SELECT count(*) FROM messages m WHERE m.session_id = s.id),
               (SELECT count(*) FROM skill_calls c WHERE c.session_id = s.id)
        FROM sessions s
        """

    static func session(_ row: [SQLValue]) -> SessionRecord {
        SessionRecord(
            id: row[0].text ?? "", title: row[1].text ?? "", model: row[2].text ?? "",
            createdMilliseconds: row[3].integer ?? 0, lastActiveMilliseconds: row[4].integer ?? 0,
            messageCount: Int(row[5].integer ?? 0), callCount: Int(row[6].integer ?? 0))
    }

    // MARK: - Messages

    /// Appends `messages` to session `sessionID` in one transaction, at the next positions (their own
    /// `position` is ignored); the first user message titles a session that has no title. Returns the
    /// position of the first of them (-1 when `messages` is empty).
    @discardableResult
    public func appendMessages(_ messages: [MessageRecord], session sessionID: String) throws(StoreError) -> Int {
        guard !messages.isEmpty else { return -1 }
        let now = clock()
        return try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in Int(try Self.insertMessages(messages, session: sessionID, now: now, database)) }
        }
    }

    /// Appends `messages` and, in the same transaction, the rows of the skill calls the last assistant
    /// message asks for (status `started`: a crash before they finish leaves them to be marked
    /// `interrupted`). Returns the calls' row ids, for ``finishCall(_:with:context:)``. Writing the rows
    /// here saves each call a transaction of its own.
    public func appendMessages(_ messages: [MessageRecord], session sessionID: String, calls: [CallRecord]) throws(StoreError) -> [Int64] {
        guard !messages.isEmpty else { return [] }
        let now = clock()
        return try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                let next = try Self.insertMessages(messages, session: sessionID, now: now, database)
                var rows: [Int64] = []
                let asking = messages.lastIndex { $0.role == "assistant" }.map { next + Int64($0) }
                for var call in calls {
                    if call.messagePosition == nil { call.messagePosition = asking.map(Int.init) }
                    rows.append(try Self.insertCall(call, database))
                }
                return rows
            }
        }
    }

    /// Inserts `messages` at the session's next positions and marks it active; returns the first position.
    static func insertMessages(_ messages: [MessageRecord], session sessionID: String, now: Int64, _ database: SQLiteDatabase) throws(StoreError) -> Int64 {
        let next = try database.statement("SELECT coalesce(max(position) + 1, 0) FROM messages WHERE session_id = ?")
            .rows([.text(sessionID)]).first?.first?.integer ?? 0
        let insert = try database.statement(
            "INSERT INTO messages(session_id, position, role, content, tool_calls, tool_call_id, created_ms) VALUES(?, ?, ?, ?, ?, ?, ?)")
        for (offset, message) in messages.enumerated() {
            try insert.run([
                .text(sessionID), .integer(next + Int64(offset)), .text(message.role), .text(message.content),
                .optional(message.toolCallsJSON), .optional(message.toolCallID), .integer(now),
            ])
        }
        let title = messages.first { $0.role == "user" }.map { Self.title(from: $0.content) } ?? ""
        try database.statement(
            "UPDATE sessions SET last_active_ms = ?, title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?"
        ).run([.integer(now), .text(title), .text(sessionID)])
        return next
    }

    /// Every message of `sessionID`, in order.
    public func messages(session sessionID: String) throws(StoreError) -> [MessageRecord] {
        try reading { database throws(StoreError) in
            try database.statement(
                "SELECT position, role, content, tool_calls, tool_call_id, created_ms FROM messages WHERE session_id = ? ORDER BY position"
            ).rows([.text(sessionID)]).map { row in
                MessageRecord(
                    position: Int(row[0].integer ?? 0), role: row[1].text ?? "", content: row[2].text ?? "",
                    toolCallsJSON: row[3].text, toolCallID: row[4].text, createdMilliseconds: row[5].integer ?? 0)
            }
        }
    }

    /// A session title: the first line of `text`, at most 60 characters.
    static func title(from text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.count > 60 ? String(line.prefix(59)) + "…" : line
    }
}
