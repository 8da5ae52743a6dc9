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

    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
