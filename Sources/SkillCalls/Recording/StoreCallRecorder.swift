import SkillHostCore
import SkillJSON
import SkillStore
import Dispatch
import SkillPosix
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Which plugin build ran a skill: recorded with each call.
public struct PluginProvenance: Sendable, Equatable {
    /// The plugin's manifest version.
    public var version: String?
    /// SHA-256 of the plugin file.
    public var sha256: String?

    /// Provenance with these parts.
    public init(version: String?, sha256: String?) {
        self.version = version
        self.sha256 = sha256
    }
}

/// The ``CallRecorder`` over the SQLite history of a process that keeps it open (`chat`, `mcp`): each call
/// is a row, written whole when it ends when its assistant message was stored with it planned
/// (``PlannedCalls``) or when the recorder writes every row at finish (a server whose session has no
/// messages), else written when it starts and updated when it ends; with the session-context keys it
/// changed. Arguments are stored with `writeOnly` fields and secrets redacted. Non-idempotent skills get
/// replay and retry protection by idempotency key.
public final class StoreCallRecorder: CallRecorder {
    /// The database.
    public let store: HistoryStore
    /// The session whose calls these are.
    public let sessionID: String
    /// The context skills read and write; changed keys are stored after each call.
    public let context: SessionContext
    /// How rows are made.
    let rows: CallRows
    private let report: @Sendable (StoreError) -> Void
    private let storedContext: Mutex<[String: JSONValue]>
    private let planned: PlannedCalls?
    /// Whether every call's row is written whole when it ends (no row while it runs): what a server whose
    /// session has no messages uses, so a call costs no transaction of its own.
    let writesRowsAtFinish: Bool
    /// Commit each finish in a transaction of its own instead of logging it (how it was before the finish
    /// log; the benchmark compares the two).
    let commitsEachFinish: Bool
    /// Writes the rows of a recorder that writes them at finish (nil otherwise).
    private let writer: RowWriter?

    /// Error kinds of failed calls that may have taken effect (so a retry of a non-idempotent skill asks).
    static let effectfulFailures: Set<String> = ["timeout", "pluginCrashed", "skillFailed", "cancelled", "interrupted"]

    /// A recorder for `sessionID`; `report` hears about writes that failed (the call itself goes on).
    /// `writesRowsAtFinish`: every row is written whole when its call ends, and the session is made with the
    /// first (for `mcp`, whose session has no messages); such calls are not replayed or questioned as
    /// repeats (the client decides what to repeat).
    public convenience init(
        store: HistoryStore, sessionID: String, context: SessionContext, redactor: SecretRedactor = SecretRedactor(),
        provenance: [String: PluginProvenance] = [:], planned: PlannedCalls? = nil, writesRowsAtFinish: Bool = false,
        report: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.init(
            store: store, sessionID: sessionID, context: context, redactor: redactor, provenance: provenance, planned: planned,
            writesRowsAtFinish: writesRowsAtFinish, report: report, commitsEachFinish: false)
    }

    package init(
        store: HistoryStore, sessionID: String, context: SessionContext, redactor: SecretRedactor = SecretRedactor(),
        provenance: [String: PluginProvenance] = [:], planned: PlannedCalls? = nil, writesRowsAtFinish: Bool = false,
        report: @escaping @Sendable (StoreError) -> Void = { _ in }, commitsEachFinish: Bool
    ) {
        self.commitsEachFinish = commitsEachFinish
        self.writesRowsAtFinish = writesRowsAtFinish
        self.planned = planned
        self.store = store
        self.sessionID = sessionID
        self.context = context
        let rows = CallRows(redactor: redactor, provenance: provenance)
        self.rows = rows
        self.report = report
        self.storedContext = Mutex(context.snapshot)
        // Only the writer's thread uses it (under its own lock, taken once per row and never contended).
        let titles = Mutex(SessionTitles())
        writer = writesRowsAtFinish ? RowWriter(
            write: { row in
                let title = titles.withLock { $0.title(of: row.call.request.origin, rows) }
                let started = row.startedMilliseconds ?? store.now()
                do throws(StoreError) {
                    guard row.context.isEmpty else {
                        // Rows with context changes (rare for a server) go through the record, which carries them.
                        var ending = rows.ending(of: row.call, row.outcome)
                        ending.startedMilliseconds = row.startedMilliseconds
                        ending.idempotencyKey = row.call.idempotencyKey
                        let record = rows.started(row.call, sessionID: sessionID, at: started)
                        try store.recordFinish(of: record, with: ending, context: row.context, sessionTitle: title, committing: false)
                        return store.finishLogWantsCommit
                    }
                    return try store.logRow(rows.finishedRow(of: row.call, row.outcome, sessionID: sessionID, startedAt: started, sessionTitle: title))
                } catch {
                    report(error)
                    return false
                }
            },
            commit: {
                do throws(StoreError) { try store.flushFinishes() } catch { report(error) }
            }) : nil
    }

    /// Removes secrets before anything is written.
    public var redactor: SecretRedactor { rows.redactor }

    public func decision(for call: RecordedCall) -> CallDecision {
        // A server's client decides what to repeat: its calls are not keyed by their arguments, and none is
        // replayed or questioned (each gets its own key from its call id).
        guard !writesRowsAtFinish, let skillID = call.skillID, let tool = call.tool else { return .run(idempotencyKey: nil) }
        // The history computed the key when it stored the call's message (and read its earlier calls with
        // it, for a non-idempotent skill); otherwise it is computed here.
        let plan = planned?.decisionInputs(of: call.callID)
        let key: String
        if let planned = plan?.idempotencyKey {
            key = planned
        } else if let arguments = call.arguments, case .object = arguments {
            key = IdempotencyKey.make(sessionID: sessionID, skillID: skillID, arguments: arguments)
        } else {
            return .run(idempotencyKey: nil)
        }
        // Idempotent skills run again: repeating them is harmless and their answer may have changed.
        guard !tool.idempotent else { return .run(idempotencyKey: key) }
        do {
            // Read with the assistant message that asked for the call, when it was stored with it planned.
            let earlier: [CallRecord]
            if let known = plan?.earlier {
                earlier = known
            } else {
                earlier = try store.calls(idempotencyKey: key, session: sessionID)
            }
            if let done = earlier.first(where: { $0.status == .succeeded }), let text = done.resultJSON,
                let result = try? JSONValue(parsing: text)
            {
                return .replay(result: result, idempotencyKey: key)
            }
            if let failure = earlier.first(where: { $0.status == .failed || $0.status == .interrupted }),
                Self.effectfulFailures.contains(failure.errorKind ?? "")
            {
                let why = failure.status == .interrupted ? "was interrupted" : "failed (\(failure.errorKind ?? "error"))"
                return .confirmRetry(
                    reason: "the same \(skillID) call \(why) earlier in this session and may have taken effect", idempotencyKey: key)
            }
        } catch {
            report(error)
        }
        return .run(idempotencyKey: key)
    }

    public func callStarted(_ call: RecordedCall) -> CallHandle {
        // Its assistant message, stored, lists it: nothing to write before the call runs.
        if let planned, planned.start(call.callID, at: store.now()) {
            return CallHandle(id: nil, writtenAtFinish: true)
        }
        if writesRowsAtFinish { return CallHandle(id: nil, startedMilliseconds: store.now(), writtenAtFinish: true) }
        do {
            let record = rows.started(call, sessionID: sessionID, at: store.now())
            return CallHandle(id: try store.startCall(record), startedMilliseconds: nil, storedIdempotencyKey: true)
        } catch {
            report(error)
            return CallHandle(id: nil)
        }
    }

    public func callFinished(_ handle: CallHandle, call: RecordedCall, outcome: ToolCallOutcome) {
        if writesRowsAtFinish {
            guard handle.id != nil || handle.writtenAtFinish, let writer else { return }
            // Built and logged on the writer's thread: the caller's loop only hands the call over.
            writer.add(PendingRow(call: call, outcome: outcome, startedMilliseconds: handle.startedMilliseconds, context: contextChanges()))
            return
        }
        let planned = handle.writtenAtFinish ? planned?.take(call.callID) : nil
        guard handle.id != nil || planned != nil else { return }
        var ending = rows.ending(of: call, outcome)
        ending.startedMilliseconds = handle.startedMilliseconds
        if !handle.storedIdempotencyKey { ending.idempotencyKey = call.idempotencyKey }
        do {
            if let planned {
                ending.idempotencyKey = call.idempotencyKey ?? planned.idempotencyKey
                var made = planned
                made.frontEnd = call.request.origin.frontEnd
                made.client = call.request.origin.client
                if call.tool?.idempotent == false, let key = ending.idempotencyKey {
                    // A call with this key planned with it decides without reading the database
                    // (PlannedCalls.decisionInputs); the record is made only when there is one.
                    self.planned?.remember(
                        {
                            var done = made
                            done.status = ending.status
                            done.resultJSON = ending.resultJSON
                            done.errorKind = ending.errorKind
                            done.idempotencyKey = key
                            return done
                        }, callID: call.callID, key: key, session: planned.sessionID)
                }
                if commitsEachFinish {
                    try store.finishCall(of: made, with: ending, context: contextChanges())
                } else {
                    try store.recordFinish(of: made, with: ending, context: contextChanges())
                }
            } else if let row = handle.id {
                if commitsEachFinish {
                    try store.finishCall(row, with: ending, context: contextChanges())
                } else {
                    try store.recordFinish(row, with: ending, context: contextChanges())
                }
            }
        } catch {
            report(error)
        }
    }

    /// Writes the rows handed to the writer's thread and commits every logged finish; returns once they are
    /// in the database. A server calls it before it exits (the store's finish log is removed then).
    public func flush() {
        writer?.drain()
        do { try store.closeFinishLog() } catch { report(error) }
    }

    /// The session title of the last origin the writer saw: a server's calls mostly come from one client, and
    /// the title is then not made again per row.
    struct SessionTitles {
        private var last: (origin: CallOrigin, title: String)?

        mutating func title(of origin: CallOrigin, _ rows: CallRows) -> String {
            if let last, last.origin == origin { return last.title }
            let title = rows.sessionTitle(origin)
            last = (origin, title)
            return title
        }
    }

    /// One finished call of a recorder that writes rows at finish, as the caller handed it over.
    struct PendingRow: Sendable {
        var call: RecordedCall
        var outcome: ToolCallOutcome
        var startedMilliseconds: Int64?
        var context: [String: String]
    }

    /// The thread that turns a server's finished calls into rows, logs and commits them (redaction,
    /// serialization, the finish record, SQLite): none of that runs on the loop that answers the calls, which
    /// only appends the call to a list. The thread runs at the lowest priority (nice 19), so recording takes
    /// the processor time answering does not want: a burst of calls is answered first and recorded as soon as
    /// there is room (at the latest when the server stops: ``drain()`` runs at normal priority). It commits
    /// what it logged every ``commitInterval`` or when the finish log fills half its map.
    final class RowWriter: Sendable {
        private struct State {
            var rows: [PendingRow] = []
            var working = false
        }
        private let waiting = Mutex(State())
        private let thread = BlockingThread()
        /// Writes one row; returns whether the store wants its logged rows committed now.
        private let write: @Sendable (PendingRow) -> Bool
        private let commit: @Sendable () -> Void
        /// Seconds between two commits of the logged rows while calls keep coming.
        static let commitInterval = 0.05
        /// How long (2 ms: `usleep` counts microseconds; the name said nanoseconds) the thread waits for more
        /// calls before it sleeps until woken: a sequential client's next call usually comes within it, so the
        /// thread is not woken once per call.
        static let gatherMicroseconds: UInt32 = 2_000

        init(write: @escaping @Sendable (PendingRow) -> Bool, commit: @escaping @Sendable () -> Void) {
            self.write = write
            self.commit = commit
            thread.submit { Posix.setThreadNice(19) }
        }

        deinit { thread.finish() }

        /// Hands a row over; wakes the thread when it is not already at work.
        func add(_ row: consuming PendingRow) {
            // Moved into the list, not copied (a copy retains every part of the call and its outcome).
            var row = Optional(row)
            let wake = waiting.withLock { state -> Bool in
                state.rows.append(row.take()!)
                defer { state.working = true }
                return !state.working
            }
            if wake { thread.submit { [self] in work() } }
        }

        /// Writes what is waiting, until nothing is, committing along the way; then commits.
        private func work() {
            var lastCommit = Posix.monotonicNanoseconds()
            while true {
                var batch = waiting.withLock { state -> [PendingRow] in
                    defer { state.rows.removeAll(keepingCapacity: true) }
                    return state.rows
                }
                if batch.isEmpty {
                    // Calls still coming are gathered for a moment before the thread goes to sleep.
                    usleep(Self.gatherMicroseconds)
                    batch = waiting.withLock { state -> [PendingRow] in
                        defer { state.rows.removeAll(keepingCapacity: true) }
                        if state.rows.isEmpty { state.working = false }
                        return state.rows
                    }
                    if batch.isEmpty { break }
                }
                // A batch gathered while the thread waited for the processor can outgrow the finish log's
                // map: committing when the log asks for it, row by row, keeps every record a copy into the
                // map instead of a `pwrite` each.
                // Lent where they lie in the batch: a copy of each row out of the list retained every part
                // of it once more.
                batch.withUnsafeBufferPointer { rows in
                    for index in rows.indices {
                        if write(rows[index]) { commit() }
                    }
                }
                let now = Posix.monotonicNanoseconds()
                if Double(now &- lastCommit) / 1e9 >= Self.commitInterval {
                    commit()
                    lastCommit = now
                }
            }
            commit()
        }

        /// Returns once every row handed over before the call is written and committed, at normal priority.
        func drain() {
            let done = DispatchSemaphore(value: 0)
            let submitted = thread.submit { [self] in
                Posix.setThreadNice(0)
                work()
                done.signal()
            }
            if submitted { done.wait() }
        }
    }

    /// Context keys whose values differ from what was stored last, as JSON text; remembers them as stored.
    private func contextChanges() -> [String: String] {
        let now = context.snapshot
        // Most calls run with an empty context: nothing to compare.
        if now.isEmpty { return [:] }
        return storedContext.withLock { stored in
            var changes: [String: String] = [:]
            for (key, value) in now where stored[key] != value {
                changes[key] = rows.redactor.redact(value).serialized()
                stored[key] = value
            }
            return changes
        }
    }
}

/// How a call becomes a row of the history, the same for every recorder: its arguments redacted (secrets and
/// `writeOnly` fields), its result redacted with its summary line, its error scrubbed, the plugin that ran
/// it, who made it.
struct CallRows: Sendable {
    /// Removes secrets before anything is written.
    let redactor: SecretRedactor
    /// Plugin version and file hash by skill id.
    let provenance: [String: PluginProvenance]

    /// The row of `call` as it starts (status `started`).
    func started(_ call: RecordedCall, sessionID: String, at milliseconds: Int64) -> CallRecord {
        let argumentsText: String =
            if let arguments = call.arguments, case .object = arguments {
                redactor.redact(arguments, schema: call.tool?.parameters).serialized()
            } else {
                redactor.scrub(call.request.arguments.text)
            }
        let origin = call.skillID.flatMap { provenance[$0] }
        return CallRecord(
            callID: call.callID, sessionID: sessionID, skillID: call.skillID ?? call.request.toolName,
            pluginVersion: origin?.version, pluginSHA256: origin?.sha256, argumentsJSON: argumentsText, status: .started,
            startedMilliseconds: milliseconds, idempotencyKey: call.idempotencyKey,
            frontEnd: call.request.origin.frontEnd, client: call.request.origin.client)
    }

    /// How `call` ended, as the row says it.
    func ending(of call: RecordedCall, _ outcome: ToolCallOutcome) -> CallOutcome {
        let milliseconds = Self.milliseconds(of: outcome)
        var ending: CallOutcome
        switch outcome.result {
        case .success(let result):
            let stored = redactor.redact(result)
            ending = CallOutcome(
                status: outcome.replayed ? .replayed : .succeeded, resultJSON: stored.serialized(),
                summary: ResultSummary.line(for: stored, template: call.tool?.summary, limit: 120),
                durationMilliseconds: milliseconds)
        case .failure(let error):
            ending = CallOutcome(
                status: outcome.refused ? .refused : .failed, errorKind: error.kind.rawValue, error: redactor.scrub(error.message),
                durationMilliseconds: outcome.refused ? 0 : milliseconds)
        }
        let origin = call.skillID.flatMap { provenance[$0] }
        ending.pluginVersion = origin?.version
        ending.pluginSHA256 = origin?.sha256
        ending.workerPID = call.workerPID.map(Int64.init)
        return ending
    }

    /// The whole row of `call`, which ended with `outcome`, for ``HistoryStore/logRow(_:)``: the fields
    /// ``started(_:sessionID:at:)`` and ``ending(of:_:)`` give it, its arguments and result left as values
    /// (the store serializes them into its log).
    func finishedRow(
        of call: RecordedCall, _ outcome: ToolCallOutcome, sessionID: String, startedAt milliseconds: Int64, sessionTitle: String
    ) -> FinishedCallRow {
        let arguments: FinishedCallRow.Arguments =
            if let arguments = call.arguments, case .object = arguments {
                .value(redactor.redact(arguments, schema: call.tool?.parameters))
            } else {
                .text(redactor.scrub(call.request.arguments.text))
            }
        var row = FinishedCallRow(
            callID: call.callID, sessionID: sessionID, skillID: call.skillID ?? call.request.toolName, arguments: arguments,
            status: .succeeded, startedMilliseconds: milliseconds, durationMilliseconds: Self.milliseconds(of: outcome))
        switch outcome.result {
        case .success(let result):
            let stored = redactor.redact(result)
            row.status = outcome.replayed ? .replayed : .succeeded
            row.summary = ResultSummary.line(for: stored, template: call.tool?.summary, limit: 120)
            row.result = stored
        case .failure(let error):
            row.status = outcome.refused ? .refused : .failed
            row.errorKind = error.kind.rawValue
            row.error = redactor.scrub(error.message)
            if outcome.refused { row.durationMilliseconds = 0 }
        }
        if let origin = call.skillID.flatMap({ provenance[$0] }) {
            row.pluginVersion = origin.version
            row.pluginSHA256 = origin.sha256
        }
        row.idempotencyKey = call.idempotencyKey
        row.workerPID = call.workerPID.map(Int64.init)
        row.frontEnd = call.request.origin.frontEnd
        row.client = call.request.origin.client
        row.sessionTitle = sessionTitle
        return row
    }

    /// How long a call took as the row stores it: milliseconds, to the microsecond.
    static func milliseconds(of outcome: ToolCallOutcome) -> Double { (outcome.seconds * 1_000_000).rounded() / 1000 }

    /// The title of a session that a front end without messages makes with its first row: `mcp: CLIENT`,
    /// `skillhost call`.
    func sessionTitle(_ origin: CallOrigin) -> String {
        origin == .call ? "skillhost call" : origin.label
    }
}
