import Dispatch

extension HistoryStore {
    /// How long a logged finish waits for another write to ride along with before the store commits it on
    /// its own (so other processes see it soon).
    public static let finishCommitDelayMilliseconds = 50

    /// Records how call `rowID` ended, like ``finishCall(_:with:context:)``, without a transaction of its
    /// own: the finish is appended to this store's finish log (one `write(2)`, so a crash of the process
    /// does not lose it: the next store to open the database commits it) and reaches the database with the
    /// store's next write or read, or on its own after ``finishCommitDelayMilliseconds``, or when the store
    /// closes. When the log cannot be written, the finish is committed at once.
    public func recordFinish(_ rowID: Int64, with outcome: CallOutcome, context changes: [String: String] = [:]) throws(StoreError) {
        let record = FinishRecord(rowID: rowID, outcome: outcome, context: changes, finishedMilliseconds: clock())
        let schedule = try withJournal { database, journal throws(StoreError) in
            do {
                try journal.add(record)
            } catch {
                try database.write { () throws(StoreError) in try FinishJournal.write(record, onlyIfRunning: false, database) }
                return false
            }
            defer { journal.flushScheduled = true }
            return !journal.flushScheduled
        }
        guard schedule else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Self.finishCommitDelayMilliseconds)) { [weak self] in
            try? self?.flushFinishes()
        }
    }

    /// Commits the logged finishes now (nothing happens when there are none).
    public func flushFinishes() throws(StoreError) {
        try withJournal { database, journal throws(StoreError) in
            journal.flushScheduled = false
            guard !journal.pending.isEmpty else { return }
            try database.write {}
        }
    }

    /// Finishes logged and not yet committed by this store.
    public var pendingFinishCount: Int { (try? withJournal { _, journal in journal.pending.count }) ?? 0 }

    /// Commits the finish logs of processes that died beside `path`, then removes them. A log with a record
    /// that cannot be read keeps its readable records committed and is set aside as `….bad`; the returned
    /// lines say so. A log that cannot be committed now (the database is busy) is left for the next open.
    static func recoverFinishLogs(of path: String, into database: SQLiteDatabase) -> [String] {
        var problems: [String] = []
        for log in AbandonedFinishLog.abandoned(beside: path) {
            do {
                let (records, problem) = FinishRecordCoding.decodeAll(try log.contents())
                if !records.isEmpty {
                    try database.write { () throws(StoreError) in
                        for record in records { try FinishJournal.write(record, onlyIfRunning: true, database) }
                    }
                }
                if let problem {
                    let kept = log.setAside()
                    problems.append(
                        "\(kept): a finished call's record at byte \(problem.offset) cannot be read (\(problem.reason)); the \(records.count) record(s) before it were committed, the rest stay in this file (delete it once you have looked)")
                } else {
                    log.remove()
                }
            } catch {
                continue
            }
        }
        return problems
    }
}
