import SkillHostCore
import SkillJSON

/// The recorder's part in running one tool call (``ToolCallRunner``): ask for a decision (run, replay,
/// confirm a retry), report the start and the end. Without a recorder every step does nothing.
struct CallRecording: Sendable {
    let recorder: (any CallRecorder)?
    let approval: any ApprovalHandler
    var call: RecordedCall
    let decision: CallDecision
    var handle = CallHandle(id: nil)

    init(configuration: AgentConfiguration, call: ToolCall, skillID: String?, tool: AgentTool?) {
        recorder = configuration.recorder
        approval = configuration.approval
        self.call = RecordedCall(
            callID: call.id, toolName: call.name, skillID: skillID, argumentsText: call.argumentsText, tool: tool,
            sessionID: configuration.sessionID)
        decision = recorder?.decision(for: self.call) ?? .run(idempotencyKey: nil)
        switch decision {
        case .run(let key): self.call.idempotencyKey = key
        case .replay(_, let key), .confirmRetry(_, let key): self.call.idempotencyKey = key
        }
    }

    /// The idempotency key to hand the skill.
    var idempotencyKey: String? { call.idempotencyKey }

    /// The earlier result when the call is a replay.
    var replayedResult: JSONValue? {
        if case .replay(let result, _) = decision { return result }
        return nil
    }

    /// Records the start.
    mutating func start() {
        if let recorder { handle = recorder.callStarted(call) }
    }

    /// Runs `body` (the skill call) and notes which worker process ran it, for the record.
    mutating func attributing(_ body: () async -> Result<JSONValue, HostError>) async -> Result<JSONValue, HostError> {
        let attribution = WorkerAttribution()
        let outcome = await WorkerAttribution.$current.withValue(attribution) { await body() }
        call.workerPID = attribution.workerPID
        return outcome
    }

    /// Records the end.
    func finish(_ outcome: Result<JSONValue, HostError>, seconds: Double) {
        recorder?.callFinished(handle, call: call, outcome: outcome, seconds: seconds, replayed: replayedResult != nil)
    }

    /// For a retry of a non-idempotent call that failed before: asks the user, and returns the refusal when
    /// they say no (nil: go ahead).
    func refusedRetry() async -> HostError? {
        guard case .confirmRetry(let reason, _) = decision, let skillID = call.skillID, let tool = call.tool else { return nil }
        let request = ApprovalRequest(
            skillID: skillID, permission: tool.permission, arguments: (try? JSONValue(parsing: call.argumentsText)) ?? [:],
            note: "retry? \(reason)")
        if await approval.approve(request) { return nil }
        return HostError(
            .denied,
            "\(skillID) was not run again: \(reason); retry only after checking (pass --yes or answer y to retry)",
            skillID: skillID)
    }
}
