import SkillHostCore
import SkillJSON
import SkillStore

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
