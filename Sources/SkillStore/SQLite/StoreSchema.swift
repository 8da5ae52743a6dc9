#if canImport(Glibc)
import Glibc
#endif

/// The history database's schema: every version's migration, in order, in one place. Version N is
/// `migrations[N - 1]`; `PRAGMA user_version` holds the version a file has. Append new versions; never
/// edit a released one (docs/history.md lists the tables).
enum StoreSchema {
    /// `PRAGMA application_id` of SkillHost history files ("SKLH"), so another program's database is refused.
    static let applicationID: Int64 = 0x534B_4C48

    /// The newest version this build reads and writes.
    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Migration `i` takes a file from version `i` to `i + 1`.
    static let migrations: [String] = [
        // 1: sessions, messages, skill calls. Few indexes, so recording a call writes few pages: rows are
        // inserted when calls start, so the row id is the start order (trace sorts by it).
        """
        CREATE TABLE sessions(
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL DEFAULT '',
            model TEXT NOT NULL DEFAULT '',
            created_ms INTEGER NOT NULL,
            last_active_ms INTEGER NOT NULL
        );
        CREATE INDEX sessions_last_active ON sessions(last_active_ms);
        CREATE TABLE messages(
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            tool_calls TEXT,
            tool_call_id TEXT,
            created_ms INTEGER NOT NULL,
            PRIMARY KEY(session_id, position)
        ) WITHOUT ROWID;
        CREATE TABLE skill_calls(
            id INTEGER PRIMARY KEY,
            call_id TEXT NOT NULL,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            message_position INTEGER,
            skill_id TEXT NOT NULL,
            plugin_version TEXT,
            plugin_sha256 TEXT,
            arguments TEXT NOT NULL,
            status TEXT NOT NULL,
            result TEXT,
            summary TEXT,
            error_kind TEXT,
            error TEXT,
            started_ms INTEGER NOT NULL,
            duration_ms REAL,
            idempotency_key TEXT
        );
        CREATE INDEX skill_calls_skill ON skill_calls(skill_id);
        CREATE INDEX skill_calls_session ON skill_calls(session_id);
        CREATE INDEX skill_calls_key ON skill_calls(idempotency_key);
        """,
        // 2: the worker's pid per call and the per-session execution context.
        """
        ALTER TABLE skill_calls ADD COLUMN worker_pid INTEGER;
        CREATE TABLE session_context(
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            updated_ms INTEGER NOT NULL,
            PRIMARY KEY(session_id, key)
        ) WITHOUT ROWID;
        """,
        // 3: one index on skill calls instead of three, so recording a call writes fewer pages (docs/history.md,
        // "Cost"). The idempotency lookup always names the session (a key starts with it), so session and key
        // share one index; its prefix serves the session's calls and the cascade from `sessions`. `trace
        // --skill` and `inspect` walk the calls newest first by row id until they have enough.
        """
        DROP INDEX skill_calls_skill;
        DROP INDEX skill_calls_session;
        DROP INDEX skill_calls_key;
        CREATE INDEX skill_calls_session_key ON skill_calls(session_id, idempotency_key);
        """,
        // 4: the context keys a call changed ride in its row (CallContextChanges), written with it, instead of
        // an upsert into `session_context`: one B-tree page fewer per call (docs/history.md, "Cost").
        """
        ALTER TABLE skill_calls ADD COLUMN context TEXT;
        """,
        // 5: which front end made a call (`chat`, `mcp`, `call`, …; null on rows written before, all of them
        // by `chat`) and, for MCP, the client's name (docs/history.md, "Front ends").
        """
        ALTER TABLE skill_calls ADD COLUMN front_end TEXT;
        ALTER TABLE skill_calls ADD COLUMN client TEXT;
        """,
        // 6: workflow runs and their steps' state (docs/workflows.md): a run resumes from here after a crash; schedules,
        // and the run each scheduled instant started (one per instant: `workflow due` is idempotent).
        """
        CREATE TABLE workflow_runs(
            id TEXT PRIMARY KEY,
            workflow TEXT NOT NULL,
            file TEXT NOT NULL,
            definition TEXT NOT NULL,
            input TEXT NOT NULL,
            status TEXT NOT NULL,
            started_ms INTEGER NOT NULL,
            finished_ms INTEGER
        );
        CREATE TABLE workflow_steps(
            run_id TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
            step_id TEXT NOT NULL,
            status TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            output TEXT,
            error TEXT,
            started_ms INTEGER,
            finished_ms INTEGER,
            PRIMARY KEY(run_id, step_id)
        ) WITHOUT ROWID;
        CREATE TABLE workflow_schedules(
            name TEXT PRIMARY KEY,
            cron TEXT NOT NULL,
            input TEXT NOT NULL,
            created_ms INTEGER NOT NULL
        );
        CREATE TABLE workflow_schedule_runs(
            name TEXT NOT NULL,
            instant_ms INTEGER NOT NULL,
            run_id TEXT NOT NULL,
            PRIMARY KEY(name, instant_ms)
        ) WITHOUT ROWID;
        """,
    ]

    /// The page size of files this build creates: half SQLite's default, since every page a transaction
    /// changes is checksummed, copied into the WAL and written back at checkpoints by its bytes, and the
    /// history's rows are small (docs/history.md, "Cost"). An existing file keeps the size it has.
    static let newFilePageSize = 2048

    /// Checks that `database` is a SkillHost history file this build understands, then brings it to
    /// ``currentVersion``. Nothing is written to a file that fails the check.
    static func prepare(_ database: SQLiteDatabase, upTo target: Int64 = currentVersion) throws(StoreError) {
        // Reads first: a file that is not a database, or not ours, or too new, stays byte for byte as it was.
        let application = try database.scalar("PRAGMA application_id").integer ?? 0
        let version = try database.scalar("PRAGMA user_version").integer ?? 0
        if application != 0, application != applicationID {
            throw StoreError(
                .corrupt,
                "\(database.path) is an SQLite database of another program (application_id \(application)); it was left untouched: pass --state DIR to keep the history elsewhere")
        }
        if version > currentVersion {
            throw StoreError(
                .newerVersion,
                "\(database.path) was written by a newer skillhost (history schema version \(version); this one reads up to \(currentVersion)); it was left untouched: upgrade skillhost, or pass --state DIR for a separate history")
        }
        if version > 0 {
            // A damaged schema page shows here, before anything is written.
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        }
        if version == 0, (try database.scalar("PRAGMA page_count").integer ?? 0) == 0 {
            // Only a file without pages takes it (before WAL is on and anything is written).
            try database.execute("PRAGMA page_size=\(newFilePageSize)")
        }
        try switchToWAL(database)
        guard version < target else { return }
        try database.write { () throws(StoreError) in
            // Another process may have migrated while this one waited for the lock.
            var current = try database.scalar("PRAGMA user_version").integer ?? 0
            while current < target {
                try database.execute(migrations[Int(current)])
                current += 1
            }
            try database.execute("PRAGMA user_version=\(current); PRAGMA application_id=\(applicationID)")
        }
    }

    /// Turns on WAL. Two processes opening a new file at once can find it locked while the other switches
    /// its journal mode or migrates (that step does not always wait through `busy_timeout`), so a locked or
    /// busy answer is retried for up to the busy timeout before it reaches the user.
    private static func switchToWAL(_ database: SQLiteDatabase) throws(StoreError) {
        let attempts = Int(SQLiteDatabase.busyTimeoutMilliseconds / 20)
        for attempt in 0... {
            do {
                try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
                return
            } catch {
                let retryable = error.kind == .busy || error.code.map { $0 & 0xff == 5 || $0 & 0xff == 6 } == true
                guard retryable, attempt < attempts else { throw error }
                usleep(20_000)
            }
        }
    }
}
