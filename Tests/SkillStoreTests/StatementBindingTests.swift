import Foundation
@testable import SkillStore
import Testing

/// ``SQLiteStatement`` binds text in place (`SQLITE_STATIC`, no copy) for one run and clears the bindings
/// after it: every kind of text must arrive whole, and a statement must be reusable after a failed run.
@Suite struct StatementBindingTests {
    static func database(_ state: TempState) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: state.databasePath)
        try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b TEXT, c TEXT UNIQUE, n INTEGER, r REAL)")
        return database
    }

    @Test func textOfEveryShapeIsStoredWholeAndReadBack() throws {
        let state = TempState()
        let database = try Self.database(state)
        let insert = try database.statement("INSERT INTO t(a, b, c, n, r) VALUES(?, ?, ?, ?, ?)")
        // Empty (must stay '' and not become NULL), small (kept inside the String value itself), long (heap),
        // non-ASCII, and text with a NUL byte inside (bound by length, not by strlen).
        let texts = ["", "abc", String(repeating: "long text ", count: 50), "é→🙂 unicode", "before\u{0}after", "x"]
        for (index, text) in texts.enumerated() {
            try insert.run([.text(text), .text(text + "!"), .text("unique \(index)"), .integer(Int64(index)), .real(0.5)])
        }
        let rows = try database.statement("SELECT a, b, n, r, length(a), typeof(a) FROM t ORDER BY id").rows()
        #expect(rows.count == texts.count)
        for (row, text) in zip(rows, texts) {
            #expect(row[5] == .text("text"), "'\(text)' must not be bound as NULL")
            if !text.contains("\u{0}") {  // length() stops at a NUL; the bytes are checked below
                #expect(row[4] == .integer(Int64(text.unicodeScalars.count)))
                #expect(row[0] == .text(text))
                #expect(row[1] == .text(text + "!"))
            }
            #expect(row[3] == .real(0.5))
        }
        #expect(rows.map { $0[2] } == texts.indices.map { .integer(Int64($0)) })
        // The NUL byte reached the database (the length is the whole text's).
        let blob = try database.statement("SELECT hex(CAST(a AS BLOB)) FROM t WHERE n = 4").rows()
        #expect(blob.first?.first == .text("6265666F7265006166746572"))
    }

    @Test func aFailedRunLeavesTheStatementReusable() throws {
        let state = TempState()
        let database = try Self.database(state)
        let insert = try database.statement("INSERT INTO t(a, c) VALUES(?, ?)")
        try insert.run([.text("first"), .text("same")])
        #expect(throws: StoreError.self) { try insert.run([.text("second"), .text("same")]) }
        try insert.run([.text("third"), .text("other")])
        let select = try database.statement("SELECT a FROM t WHERE c = ? ORDER BY id")
        #expect(try select.rows([.text("same")]) == [[.text("first")]])
        #expect(try select.rows([.text("other")]) == [[.text("third")]])
        // Bindings do not outlive a run: without values, the parameter reads as NULL.
        #expect(try select.rows().isEmpty)
        #expect(try database.statement("SELECT ? IS NULL").rows() == [[.integer(1)]])
    }
}
