import Foundation
import Glibc
@testable import SkillStore
import Testing

/// The `skillhost-wal-batch` VFS (Sources/CSQLiteBatch): a WAL transaction reaches the kernel in one write,
/// and every commit is whole and visible to other connections (plain SQLite ones too) when it returns.
@Suite struct BatchVFSTests {
    /// Write system calls (`write`, `pwrite`, …) this thread has made (/proc/thread-self/io `syscw`).
    static func writeCalls() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("syscw:") }),
            let count = Int(line.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces))
        else { throw TempState.SetupError("no syscw in /proc/thread-self/io") }
        return count
    }

    @Test func storesOpenTheirFilesThroughTheBatchVFS() {
        #expect(SQLiteDatabase.vfsName == "skillhost-wal-batch")
    }

    /// Each `appendMessages` commits two or three pages (the message, the session row, its `last_active_ms`
    /// index entry): four to six `pwrite`s through SQLite's own VFS (header and page per frame; 4.1 per
    /// transaction measured), one through the batch.
    @Test func aTransactionIsOneWrite() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        try store.appendMessages([MessageRecord(role: "user", content: "warm up")], session: "s")
        let transactions = 100
        let before = try Self.writeCalls()
        for index in 0..<transactions {
            try store.appendMessages([MessageRecord(role: "user", content: "message \(index)")], session: "s")
        }
        let perTransaction = Double(try Self.writeCalls() - before) / Double(transactions)
        // A checkpoint (every 1000 frames) adds a few writes of database pages: well under one per transaction.
        #expect(perTransaction < 2, "\(perTransaction) write calls per transaction")
        #expect(try store.messages(session: "s").count == transactions + 1)
    }

    /// Commits made through the batch VFS are whole for a plain SQLite connection as soon as they return, and
    /// the store reads what a plain connection commits, in the same WAL.
    @Test func plainSQLiteConnectionsSeeEveryCommit() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        for index in 0..<20 {
            try store.appendMessages([MessageRecord(role: "user", content: "m\(index)")], session: "s")
            let seen = try TempState.strings("SELECT content FROM messages WHERE session_id = 's' ORDER BY position", on: state.databasePath)
            #expect(seen == (0...index).map { "m\($0)" })
        }
        try TempState.execute(
            "INSERT INTO messages VALUES('s', 20, 'user', 'plain', NULL, NULL, 0)", on: state.databasePath)
        try store.appendMessages([MessageRecord(role: "assistant", content: "after")], session: "s")
        #expect(try store.messages(session: "s").suffix(2).map(\.content) == ["plain", "after"])
    }

    /// A transaction larger than the VFS's buffer (120 KiB) and than SQLite's page cache (2 MB, so SQLite
    /// writes frames before the commit and reads some back) arrives whole.
    @Test func aTransactionLargerThanTheBufferAndTheCacheArrivesWhole() throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        let pieces = (0..<12).map { index in String(repeating: Character(UnicodeScalar(UInt8(97 + index))), count: 300_000) }
        try store.appendMessages(pieces.map { MessageRecord(role: "tool", content: $0, toolCallID: "c") }, session: "s")
        try store.appendMessages([MessageRecord(role: "user", content: "next")], session: "s")
        #expect(try store.messages(session: "s").map(\.content) == pieces + ["next"])
        let lengths = try TempState.strings("SELECT length(content) FROM messages WHERE session_id = 's' ORDER BY position", on: state.databasePath)
        #expect(lengths == Array(repeating: "300000", count: 12) + ["4"])
        #expect(try TempState.strings("PRAGMA integrity_check", on: state.databasePath) == ["ok"])
    }
}
