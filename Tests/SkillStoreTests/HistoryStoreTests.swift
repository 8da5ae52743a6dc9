import Foundation
import SkillStore
import Testing

@Suite struct HistoryStoreTests {
    /// The version-1 schema as released (StoreSchema.migrations[0]), written here as a user's old file has it.
    static let versionOneSchema = """
        CREATE TABLE sessions(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '',
            created_ms INTEGER NOT NULL, last_active_ms INTEGER NOT NULL);
        CREATE INDEX sessions_last_active ON sessions(last_active_ms);
        CREATE TABLE messages(session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, position INTEGER NOT NULL,
            role TEXT NOT NULL, content TEXT NOT NULL, tool_calls TEXT, tool_call_id TEXT, created_ms INTEGER NOT NULL,
            PRIMARY KEY(session_id, position)) WITHOUT ROWID;
        CREATE TABLE skill_calls(id INTEGER PRIMARY KEY, call_id TEXT NOT NULL,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, message_position INTEGER, skill_id TEXT NOT NULL,
            plugin_version TEXT, plugin_sha256 TEXT, arguments TEXT NOT NULL, status TEXT NOT NULL, result TEXT, summary TEXT,
            error_kind TEXT, error TEXT, started_ms INTEGER NOT NULL, duration_ms REAL, idempotency_key TEXT);
        CREATE INDEX skill_calls_skill ON skill_calls(skill_id);
        CREATE INDEX skill_calls_session ON skill_calls(session_id);
        CREATE INDEX skill_calls_key ON skill_calls(idempotency_key);
        PRAGMA user_version = 1; PRAGMA application_id = 1397443656;
        """

    @Test func migratesAVersionOneFileKeepingItsRows() throws {
        let state = TempState()
        try TempState.execute(
            Self.versionOneSchema + """
                INSERT INTO sessions VALUES('old', 'an old chat', 'offline', 1000, 2000);
                INSERT INTO messages VALUES('old', 0, 'user', 'hello', NULL, NULL, 1000);
                INSERT INTO skill_calls(call_id, session_id, message_position, skill_id, arguments, status, started_ms, duration_ms)
                    VALUES('c1', 'old', 0, 'clock.now', '{}', 'succeeded', 1500, 12.5);
                """, on: state.databasePath)
        let store = try HistoryStore(path: state.databasePath, clock: { 3000 })
        #expect(store.schemaVersion == HistoryStore.currentSchemaVersion)
        #expect(try store.session(id: "old")?.title == "an old chat")
        #expect(try store.messages(session: "old").map(\.content) == ["hello"])
        let calls = try store.calls(matching: TraceFilter())
        #expect(calls.map(\.callID) == ["c1"])
        #expect(calls.first?.durationMilliseconds == 12.5)
        #expect(calls.first?.workerPID == nil)  // the column version 2 added
        try store.setContext(["last": "{\"a\":1}"], session: "old")  // the table version 2 added
        #expect(try store.context(session: "old") == ["last": "{\"a\":1}"])
    }

    /// What version 2 added (StoreSchema.migrations[1]), as released.
    static let versionTwoAdditions = """
        ALTER TABLE skill_calls ADD COLUMN worker_pid INTEGER;
        CREATE TABLE session_context(session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, key TEXT NOT NULL,
            value TEXT NOT NULL, updated_ms INTEGER NOT NULL, PRIMARY KEY(session_id, key)) WITHOUT ROWID;
        PRAGMA user_version = 2;
        """

    @Test func migratesAVersionTwoFileToOneCallIndex() throws {
        let state = TempState()
        try TempState.execute(
            Self.versionOneSchema + Self.versionTwoAdditions + """
                INSERT INTO sessions VALUES('a', '', '', 1000, 2000);
                INSERT INTO sessions VALUES('b', '', '', 1000, 2000);
                INSERT INTO skill_calls(call_id, session_id, skill_id, arguments, status, result, started_ms, idempotency_key, worker_pid)
                    VALUES('c1', 'a', 'x.y', '{}', 'succeeded', '1', 1500, 'a/x.y/1', 77);
                INSERT INTO skill_calls(call_id, session_id, skill_id, arguments, status, result, started_ms, idempotency_key)
                    VALUES('c1', 'b', 'x.y', '{}', 'failed', NULL, 1600, 'a/x.y/1');
                """, on: state.databasePath)
        let store = try HistoryStore(path: state.databasePath, clock: { 3000 })
        #expect(store.schemaVersion == HistoryStore.currentSchemaVersion)
        let indexes = try TempState.strings(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'skill_calls' ORDER BY name", on: state.databasePath)
        #expect(indexes == ["skill_calls_session_key"])
        // The key lookup names the session and uses the index.
        let found = try store.calls(idempotencyKey: "a/x.y/1", session: "a")
        #expect(found.map(\.status) == [.succeeded])
        #expect(found.first?.workerPID == 77)
        let plan = try TempState.strings(
            "EXPLAIN QUERY PLAN SELECT id FROM skill_calls WHERE session_id = 'a' AND idempotency_key = 'k' ORDER BY id DESC",
            on: state.databasePath)
        #expect(plan.joined().contains("skill_calls_session_key"), "\(plan)")
        #expect(try store.calls(matching: TraceFilter(skillID: "x.y")).count == 2)
        #expect(try store.stats(skillID: "x.y").calls == 2)
        #expect(try store.deleteSession(id: "a"))
        #expect(try store.calls(matching: TraceFilter()).map(\.sessionID) == ["b"])
    }

    @Test func corruptFileIsRefusedAndLeftUntouched() throws {
        let state = TempState()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try #require(FileManager.default.createFile(atPath: state.databasePath, contents: garbage))
        let error = #expect(throws: StoreError.self) { try HistoryStore(path: state.databasePath) }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains(state.databasePath) == true)
        #expect(error?.message.contains("left untouched") == true)
        #expect(TempState.bytes(state.databasePath) == garbage)
        #expect(!FileManager.default.fileExists(atPath: state.databasePath + "-wal"))
    }

    @Test func damagedPagesOfARealDatabaseAreRefusedAndLeftUntouched() throws {
        let state = TempState()
        do {
            let store = try HistoryStore(path: state.databasePath)
            try store.createSession(id: "s")
        }
        // Checkpointed into the main file by the close; now overwrite the schema page after the header.
        #expect(!FileManager.default.fileExists(atPath: state.databasePath + "-wal"), "the last close removes the WAL")
        var bytes = TempState.bytes(state.databasePath)
        #expect(bytes.count > 1024)
        for index in 100..<min(bytes.count, 4096) { bytes[index] = 0xA5 }
        try #require(FileManager.default.createFile(atPath: state.databasePath, contents: bytes))
        let error = #expect(throws: StoreError.self) { try HistoryStore(path: state.databasePath) }
        #expect(error?.kind == .corrupt)
        #expect(TempState.bytes(state.databasePath) == bytes)
    }

    @Test func newerSchemaVersionIsRefusedAndLeftUntouched() throws {
        let state = TempState()
        try TempState.execute(
            Self.versionOneSchema + "PRAGMA user_version = 99;", on: state.databasePath)
        let before = TempState.bytes(state.databasePath)
        let error = #expect(throws: StoreError.self) { try HistoryStore(path: state.databasePath) }
        #expect(error?.kind == .newerVersion)
        #expect(error?.message.contains("schema version 99") == true)
        #expect(error?.message.contains("upgrade skillhost") == true)
        #expect(TempState.bytes(state.databasePath) == before)
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        let state = TempState()
        try TempState.execute("CREATE TABLE t(x); PRAGMA application_id = 42;", on: state.databasePath)
        let before = TempState.bytes(state.databasePath)
        let error = #expect(throws: StoreError.self) { try HistoryStore(path: state.databasePath) }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains("another program") == true)
        #expect(TempState.bytes(state.databasePath) == before)
    }

    @Test func newFileIsPrivateAndInWALMode() throws {
        let state = TempState()
        let store = try HistoryStore(directory: state.directory + "/nested/state")
        try store.createSession(id: "s")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test func stateFolderUnderAFileIsRefusedInOneLine() throws {
        let state = TempState()
        let file = state.directory + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let error = #expect(throws: StoreError.self) { try HistoryStore(directory: file + "/state") }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message.hasPrefix(file + "/state: cannot create the state folder (") == true)
        #expect(error?.message.hasSuffix("); pass --state DIR") == true)
        #expect(error?.message.contains("\n") == false)
        #expect(TempState.bytes(file) == Data("x".utf8))
    }

    @Test func messagesKeepOrderAndTitleTheSession() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        try store.appendMessages([MessageRecord(role: "user", content: "first line\nsecond")], session: "s")
        try store.appendMessages(
            [MessageRecord(role: "assistant", content: "", toolCallsJSON: "[]"), MessageRecord(role: "tool", content: "{}", toolCallID: "c")],
            session: "s")
        let messages = try store.messages(session: "s")
        #expect(messages.map(\.position) == [0, 1, 2])
        #expect(messages.map(\.role) == ["user", "assistant", "tool"])
        #expect(messages.last?.toolCallID == "c")
        #expect(try store.session(id: "s")?.title == "first line")
    }

    @Test func retentionDropsOldSessionsAndKeepsTheNewestCount() throws {
        let state = TempState()
        let now = Int64(100 * 86_400_000)
        let clock = ClockBox(now - 40 * 86_400_000)
        let store = try HistoryStore(path: state.databasePath, clock: { clock.value })
        try store.createSession(id: "old")
        for (index, id) in ["a", "b", "c"].enumerated() {
            clock.value = now - Int64(3 - index) * 1000
            try store.createSession(id: id)
            try store.appendMessages([MessageRecord(role: "user", content: id)], session: id)
        }
        clock.value = now
        #expect(try store.applyRetention(RetentionPolicy(days: 30, count: nil)) == 1)
        #expect(try store.session(id: "old") == nil)
        #expect(try store.applyRetention(RetentionPolicy(days: nil, count: 2)) == 1)
        #expect(try store.sessions().map(\.id) == ["c", "b"])
        #expect(try store.messages(session: "a").isEmpty, "messages go with their session")
    }

    @Test func deleteRemovesCallsAndContextToo() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        let row = try store.startCall(CallRecord(callID: "c", sessionID: "s", skillID: "x.y", argumentsJSON: "{}", status: .started, startedMilliseconds: 1))
        try store.finishCall(row, with: CallOutcome(status: .succeeded, resultJSON: "1", durationMilliseconds: 2), context: ["k": "1"])
        #expect(try store.context(session: "s") == ["k": "1"])
        #expect(try store.deleteSession(id: "s"))
        #expect(try store.deleteSession(id: "s") == false)
        #expect(try store.calls(matching: TraceFilter()).isEmpty)
        #expect(try store.context(session: "s").isEmpty)
    }

    @Test func statsGiveFailuresAndPercentiles() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        for duration in 1...20 {
            let row = try store.startCall(
                CallRecord(callID: "c\(duration)", sessionID: "s", skillID: "x.y", argumentsJSON: "{}", status: .started, startedMilliseconds: Int64(duration)))
            let failed = duration % 10 == 0
            try store.finishCall(
                row,
                with: CallOutcome(status: failed ? .failed : .succeeded, errorKind: failed ? "timeout" : nil, error: failed ? "late" : nil,
                                  durationMilliseconds: Double(duration)))
        }
        let stats = try store.stats(skillID: "x.y")
        #expect(stats.calls == 20)
        #expect(stats.failures == 2)
        #expect(stats.p50Milliseconds == 10)
        #expect(stats.p95Milliseconds == 19)
        #expect(try store.calls(matching: TraceFilter(skillID: "x.y", failedOnly: true)).map(\.callID) == ["c20", "c10"])
        #expect(try store.calls(matching: TraceFilter(sinceMilliseconds: 18)).count == 3)
    }
}

/// A mutable clock value for tests.
final class ClockBox: @unchecked Sendable {
    var value: Int64
    init(_ value: Int64) { self.value = value }
}
