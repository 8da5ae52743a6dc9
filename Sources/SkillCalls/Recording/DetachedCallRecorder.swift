import SkillHostCore
import SkillJSON
import SkillStore
#if canImport(Glibc)
import Glibc
#endif

/// The ``CallRecorder`` of a process that makes one call and exits (`skillhost call`): it never opens the
/// database (that would cost more than the call); each finished call's whole row is left in a finish log of
/// its own beside it (``HistoryStore/leaveFinish(of:with:sessionTitle:directory:)``), which the next process
/// that opens the history commits (`trace`, `history`, `inspect`, a `chat`). The calls of one day share a
/// session, `call-YYYY-MM-DD` (UTC), made with its first row; the skill itself is not told a session.
public final class DetachedCallRecorder: CallRecorder {
    /// The state folder (where `history.sqlite3` is).
    public let directory: String
    /// The session the rows go to.
    public let sessionID: String
    private let title: String
    private let rows: CallRows
    private let report: @Sendable (StoreError) -> Void

    /// A recorder that leaves its calls beside `<directory>/history.sqlite3`; `report` hears about writes
    /// that failed (the call itself goes on).
    public init(
        directory: String, redactor: SecretRedactor = SecretRedactor(), provenance: [String: PluginProvenance] = [:],
        report: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.directory = directory
        let day = Self.utcDay(Posix.unixMilliseconds())
        sessionID = "call-" + day
        title = "skillhost call, " + day
        rows = CallRows(redactor: redactor, provenance: provenance)
        self.report = report
    }

    /// Such a call is not tied to a session: it runs.
    public func decision(for call: RecordedCall) -> CallDecision { .run(idempotencyKey: nil) }

    public func callStarted(_ call: RecordedCall) -> CallHandle {
        CallHandle(id: nil, startedMilliseconds: Posix.unixMilliseconds(), writtenAtFinish: true)
    }

    public func callFinished(_ handle: CallHandle, call: RecordedCall, outcome: ToolCallOutcome) {
        let record = rows.started(call, sessionID: sessionID, at: handle.startedMilliseconds ?? Posix.unixMilliseconds())
        var ending = rows.ending(of: call, outcome)
        ending.idempotencyKey = call.idempotencyKey
        do {
            try HistoryStore.leaveFinish(of: record, with: ending, sessionTitle: title, directory: directory)
        } catch {
            report(error)
        }
    }

    /// `YYYY-MM-DD` of a Unix time in milliseconds, in UTC.
    static func utcDay(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }
}
