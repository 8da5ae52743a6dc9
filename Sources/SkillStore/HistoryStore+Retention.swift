/// How long sessions are kept: older than `days` or beyond the newest `count` are deleted when a command
/// that uses the history starts (docs/history.md). nil keeps everything on that axis.
public struct RetentionPolicy: Sendable, Equatable {
    /// Days since a session was last active.
    public var days: Int?
    /// Sessions kept, newest first.
    public var count: Int?

    /// The default: 90 days, 1000 sessions.
    public static let standard = RetentionPolicy(days: 90, count: 1000)

    /// A policy with these limits.
    public init(days: Int?, count: Int?) {
        self.days = days
        self.count = count
    }
}

extension HistoryStore {
    /// Deletes the sessions `policy` no longer keeps (with their messages, calls and context), in one
    /// transaction. Returns how many were deleted.
    @discardableResult
    public func applyRetention(_ policy: RetentionPolicy) throws(StoreError) -> Int {
        let cutoff = policy.days.map { clock() - Int64($0) * 86_400_000 }
        return try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                var deleted = 0
                if let cutoff {
                    try database.statement("DELETE FROM sessions WHERE last_active_ms < ?").run([.integer(cutoff)])
                    deleted += database.changes
                }
                if let count = policy.count {
                    try database.statement(
                        "DELETE FROM sessions WHERE id NOT IN (SELECT id FROM sessions ORDER BY last_active_ms DESC, rowid DESC LIMIT ?)"
                    ).run([.integer(Int64(max(0, count)))])
                    deleted += database.changes
                }
                return deleted
            }
        }
    }
}
