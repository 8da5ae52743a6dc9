import Dispatch
import SkillPosix

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
        try log(FinishRecord(rowID: rowID, outcome: outcome, context: changes, finishedMilliseconds: contextStamp()))
    }

    /// Records how `call` ended when it has no row yet: its row is written whole, with its finish, like
    /// ``recordFinish(_:with:context:)`` (logged, then committed with the store's next write). Its assistant
    /// message stood for it while it ran: a crash before this leaves it to ``markUnfinishedCalls(session:)``.
    /// The outcome's start time, key, plugin and worker pid win over the call's.
    /// `sessionTitle`: the title of the call's session when it may not exist yet (it is made with the row).
    /// `committing`: false when the caller commits the logged finishes itself (``flushFinishes()``), as a
    /// thread that writes a server's rows in batches does; true schedules the commit as above.
    public func recordFinish(
        of call: consuming CallRecord, with outcome: consuming CallOutcome, context changes: [String: String] = [:], sessionTitle: String? = nil,
        committing: Bool = true
    ) throws(StoreError) {
        try log(Self.wholeRow(call, outcome, changes, now: contextStamp(), sessionTitle: sessionTitle), committing: committing)
    }

    /// Records a finished call's whole row like ``recordFinish(of:with:context:sessionTitle:committing:)``
    /// with `committing` false (the caller commits with ``flushFinishes()``), from its parts: what a
    /// server's row writer logs per call. Returns whether the finish log wants a commit now
    /// (``finishLogWantsCommit``). When the log cannot be written, the row is committed at once.
    public func logRow(_ row: borrowing FinishedCallRow) throws(StoreError) -> Bool {
        let finished = contextStamp()
        return try withJournal { database, journal throws(StoreError) in
            do {
                return try journal.add(row, finishedMilliseconds: finished)
            } catch {
                let record = row.record(finishedMilliseconds: finished)
                try database.write { () throws(StoreError) in
                    try FinishJournal.makeSessions(of: [record], database)
                    try FinishJournal.write(record, onlyIfRunning: false, database)
                }
                return false
            }
        }
    }

    /// Whether the finish log has grown past half of what it keeps mapped: a caller that commits its finishes
    /// itself should commit now, or the next ones are written with a system call each.
    public var finishLogWantsCommit: Bool { (try? withJournal { _, journal in journal.wantsCommit }) ?? false }

    /// Records how `call` ended without opening the database, for a process that makes one call and exits
    /// (`skillhost call`: opening SQLite would cost it more than the call): the whole row goes to a finish
    /// log of its own beside `<directory>/history.sqlite3`, which the next process that opens the database
    /// commits, as it commits the logs of processes that died (`trace` shows it then). Its session is made
    /// with it, titled `sessionTitle`, when it does not exist. The folder is made (0700) when missing.
    public static func leaveFinish(
        of call: CallRecord, with outcome: CallOutcome, sessionTitle: String, directory: String
    ) throws(StoreError) {
        do {
            try Posix.createDirectories(directory)
        } catch {
            throw StoreError(.cannotOpen, "\(error.path): cannot create the state folder (\(error.reason)); pass --state DIR")
        }
        let record = wholeRow(call, outcome, [:], now: systemMilliseconds(), sessionTitle: sessionTitle)
        let path = databasePath(in: directory)
        try FinishLog.leave(FinishRecordCoding.encode(record), databasePath: path)
        // A script that only ever calls would pile the logs up: every so many, this call commits them all.
        if FinishLog.count(beside: path) >= leftFinishesCommitted { _ = try HistoryStore(path: path) }
    }

    /// How many finish logs left beside the database make the next ``leaveFinish(of:with:sessionTitle:directory:)``
    /// open it and commit them (about 2 ms once, instead of a file per call for ever).
    public static let leftFinishesCommitted = 64

    /// ``recordFinish(of:with:context:)`` committed at once, in a transaction of its own.
    public func finishCall(of call: CallRecord, with outcome: CallOutcome, context changes: [String: String] = [:]) throws(StoreError) {
        let record = Self.wholeRow(call, outcome, changes, now: contextStamp())
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in try FinishJournal.write(record, onlyIfRunning: false, database) }
        }
    }

    static func wholeRow(
        _ call: consuming CallRecord, _ outcome: consuming CallOutcome, _ changes: [String: String], now: Int64, sessionTitle: String? = nil
    ) -> FinishRecord {
        // Both are consumed: their texts move into the record instead of being copied (retained) once more.
        outcome.startedMilliseconds = outcome.startedMilliseconds ?? call.startedMilliseconds
        outcome.idempotencyKey = outcome.idempotencyKey ?? call.idempotencyKey
        outcome.pluginVersion = outcome.pluginVersion ?? call.pluginVersion
        outcome.pluginSHA256 = outcome.pluginSHA256 ?? call.pluginSHA256
        outcome.workerPID = outcome.workerPID ?? call.workerPID
        return FinishRecord(
            rowID: 0, outcome: outcome, context: changes, finishedMilliseconds: now,
            start: CallStart(
                callID: call.callID, sessionID: call.sessionID, messagePosition: call.messagePosition.map(Int64.init),
                skillID: call.skillID, argumentsJSON: call.argumentsJSON, frontEnd: call.frontEnd, client: call.client,
                sessionTitle: sessionTitle))
    }

    /// Logs `record` and keeps it for the next transaction (committed at once when the log cannot be written).
    private func log(_ record: FinishRecord, committing: Bool = true) throws(StoreError) {
        let schedule = try withJournal { database, journal throws(StoreError) in
            do {
                try journal.add(record)
            } catch {
                try database.write { () throws(StoreError) in try FinishJournal.write(record, onlyIfRunning: false, database) }
                return false
            }
            guard committing else { return false }
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
            guard journal.pendingCount > 0 else { return }
            try database.write {}
        }
    }

    /// Commits the logged finishes and removes the store's finish log (a later finish makes a new one): what a
    /// process does before it exits, so it leaves no file for the next opener to clear.
    public func closeFinishLog() throws(StoreError) {
        try flushFinishes()
        try withJournal { _, journal in journal.close() }
    }

    /// Finishes logged and not yet committed by this store.
    public var pendingFinishCount: Int { (try? withJournal { _, journal in journal.pendingCount }) ?? 0 }

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
                        try FinishJournal.makeSessions(of: records, database)
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
