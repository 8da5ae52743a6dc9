import CSQLite
import Foundation
import SkillStore

/// A temporary state folder, removed when the test ends.
final class TempState {
    let directory: String
    var databasePath: String { directory + "/" + HistoryStore.fileName }

    init() {
        directory = NSTemporaryDirectory() + "skillstore-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The bytes of `path` (empty when missing).
    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    /// Runs `sql` on `path` with plain SQLite, outside the store (to build old or foreign files).
    static func execute(_ sql: String, on path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw SetupError("cannot open \(path)") }
        defer { sqlite3_close(handle) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            throw SetupError(message.map { String(cString: $0) } ?? "sqlite3_exec failed")
        }
    }

    /// The last column of every row `sql` returns on `path`, as text (plain SQLite, outside the store; the
    /// last column of `EXPLAIN QUERY PLAN` is the plan's text).
    static func strings(_ sql: String, on path: String) throws -> [String] {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw SetupError("cannot open \(path)") }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SetupError(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            values.append(sqlite3_column_text(statement, sqlite3_column_count(statement) - 1).map { String(cString: $0) } ?? "")
        }
        return values
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
