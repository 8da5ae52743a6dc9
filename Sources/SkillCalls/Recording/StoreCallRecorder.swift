import SkillHostCore
import SkillJSON
import SkillStore
import Synchronization

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
