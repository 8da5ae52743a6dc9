/// The key of a cached prepared statement: its SQL text, hashed cheaply. Statements are looked up several
/// times per recorded call, and SipHash over a few hundred bytes of SQL cost more than the lookup's
/// purpose; the hash takes the length and a few 8-byte samples, and equality still compares the whole text
/// (so two statements with the same samples only share a bucket, never a statement).
struct StatementKey: Hashable {
    let sql: String

    static func == (lhs: StatementKey, rhs: StatementKey) -> Bool { lhs.sql == rhs.sql }

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            guard bytes.count >= 8 else {
                for byte in bytes { hasher.combine(byte) }
                return
            }
            let raw = UnsafeRawBufferPointer(bytes)
            // The start, two points inside and the end: statements differ in their verb, table, columns or tail.
            hasher.combine(raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: min(bytes.count / 3, bytes.count - 8), as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: min((bytes.count * 2) / 3, bytes.count - 8), as: UInt64.self))
            hasher.combine(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
    }
}
