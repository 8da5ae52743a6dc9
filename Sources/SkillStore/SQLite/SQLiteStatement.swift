import CSQLite

/// One prepared statement, reset and reused by ``SQLiteDatabase``. Not thread-safe: used only while the
/// database's lock is held.
///
/// Values are bound for one run and cleared after it: text is bound in place (`SQLITE_STATIC`: SQLite reads
/// the string's own bytes while the statement steps, instead of copying each text into a buffer of its own
/// and freeing it again: several allocations per recorded call), and between runs the statement is left
/// reset with no bindings, so no pointer into a string outlives the run that bound it.
final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let database: SQLiteDatabase

    init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1…n, runs `body` while they are bound (text points into the strings,
    /// valid only inside), then resets the statement and clears the bindings.
    private func withBindings<R>(_ values: [SQLValue], _ body: () -> R) -> R {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        return bind(values, from: 0, body)
    }

    /// Binds `values[index...]`, then runs `body`; each text is bound inside its string's `withUTF8`, so
    /// `body` runs with all of them still alive.
    private func bind<R>(_ values: [SQLValue], from index: Int, _ body: () -> R) -> R {
        guard index < values.count else { return body() }
        let position = Int32(index + 1)
        switch values[index] {
        case .null: sqlite3_bind_null(handle, position)
        case .integer(let number): sqlite3_bind_int64(handle, position, number)
        case .real(let number): sqlite3_bind_double(handle, position, number)
        case .text(var text):
            return text.withUTF8 { bytes in
                // A null pointer would bind NULL: empty text gets a pointer of its own.
                if let start = bytes.baseAddress {
                    let chars = UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self)
                    sqlite3_bind_text(handle, position, chars, Int32(bytes.count), nil)
                } else {
                    sqlite3_bind_text(handle, position, "", 0, Self.transient)
                }
                return bind(values, from: index + 1, body)
            }
        }
        return bind(values, from: index + 1, body)
    }

    /// SQLite's "transient" destructor (it copies the bytes before `bind` returns).
    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    /// Runs the statement to its end (for writes).
    func run(_ values: [SQLValue] = []) throws(StoreError) {
        // The error is made before the reset, while SQLite still holds its message.
        let failure = withBindings(values) { () -> StoreError? in
            var code = sqlite3_step(handle)
            while code == SQLITE_ROW { code = sqlite3_step(handle) }
            return code == SQLITE_DONE ? nil : database.error(code, doing: "write")
        }
        if let failure { throw failure }
    }

    /// Runs the statement to its end (for writes) with the parameters `bind` binds through the statement's
    /// handle (those it leaves alone are NULL); the bindings are cleared after the run, so text bound in
    /// place (`SQLITE_STATIC`) need only outlive this call.
    func run(binding bind: (OpaquePointer) -> Void) throws(StoreError) {
        bind(handle)
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        let failure = code == SQLITE_DONE ? nil : database.error(code, doing: "write")
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        if let failure { throw failure }
    }

    /// Every row, each as its columns.
    func rows(_ values: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        let (rows, failure) = withBindings(values) { () -> ([[SQLValue]], StoreError?) in
            var rows: [[SQLValue]] = []
            while true {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { return (rows, nil) }
                guard code == SQLITE_ROW else { return (rows, database.error(code, doing: "read")) }
                let count = sqlite3_column_count(handle)
                var row: [SQLValue] = []
                row.reserveCapacity(Int(count))
                for column in 0..<count { row.append(value(at: column)) }
                rows.append(row)
            }
        }
        if let failure { throw failure }
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
