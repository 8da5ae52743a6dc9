import CSQLite

/// SQLite's "transient" destructor: it copies bound text before `bind` returns.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement, reset and reused by ``SQLiteDatabase``. Not thread-safe: used only while the
/// database's lock is held.
final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1…n (after clearing earlier bindings).
    func bind(_ values: [SQLValue]) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .real(let number): sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // The length is known (no strlen); SQLite copies the bytes before this returns.
                sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), transientDestructor)
            }
        }
    }

    /// Runs the statement to its end (for writes).
    func run(_ values: [SQLValue] = []) throws(StoreError) {
        bind(values)
        defer { sqlite3_reset(handle) }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else { throw database.error(code, doing: "write") }
    }

    /// Every row, each as its columns.
    func rows(_ values: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [[SQLValue]] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw database.error(code, doing: "read") }
            let count = sqlite3_column_count(handle)
            var row: [SQLValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count { row.append(value(at: column)) }
            rows.append(row)
        }
        return rows
    }

    private func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: return .null
        default:
            guard let text = sqlite3_column_text(handle, column) else { return .null }
            return .text(String(cString: text))
        }
    }
}

/// A value bound to or read from SQLite.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// Text or nil.
    var text: String? { if case .text(let text) = self { text } else { nil } }
    /// An integer (reals are truncated) or nil.
    var integer: Int64? {
        switch self {
        case .integer(let number): number
        case .real(let number): Int64(number)
        default: nil
        }
    }
    /// A number as a double, or nil.
    var real: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .real(let number): number
        default: nil
        }
    }

    /// `.text(value)` or `.null`.
    static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
}
