import SkillHostCore
import SkillJSON

/// The one path of a tool call, whichever front end makes it (the agent loop, the MCP server, `skillhost
/// call`, and the ones to come): from the arguments as the caller got them to the outcome it shows, in this
/// order (docs/architecture.md, "One path for a tool call"):
///
/// 1. the arguments are parsed, once (``CallArguments``);
/// 2. the recorder decides: run, replay an earlier result, or ask before a retry (``CallRecorder``), and
///    records the start;
/// 3. the backend checks what needs nobody: the skill, the registry, the gates, the arguments against the
///    schema (``SkillBackend/prepare(skillID:arguments:)``, the host's one validator);
/// 4. someone is asked when the call needs it (a retry of a call that may have taken effect; a `write` or
///    `dangerous` skill the registry says to ask about, unless ``PreApproval`` spares it the question): the
///    one ``ApprovalHandler``, asked before the skill's clock starts;
/// 5. the backend runs it: the skill's clock (``CallDeadline``) starts there, owned by the executor;
/// 6. the result is checked against the tool's output schema, once;
/// 7. the recorder records how it ended, with the time it took without the waits for a person.
///
/// Thread-safe; calls run at once.
public final class ToolCaller: Sendable {
    /// Where the tools and their calls go.
    public let backend: any SkillBackend
    /// Who is asked before calls that need it.
    public let approval: any ApprovalHandler
    /// What may spare a call the question (an active skill's `allowed-tools`); nil: every call that needs
    /// approval is asked about.
    public let preApproval: (any PreApproval)?
    /// Where calls are recorded; nil records nothing.
    public let recorder: (any CallRecorder)?
    /// The session the calls belong to ("" for none), handed to skills.
    public let sessionID: String
    /// Values skills store for later skills of the session.
    public let sessionContext: SessionContext
    /// Whether each request's call id is the host's call id too (it must then be unique per call, as an MCP
    /// server's numbered ids are); false: the host makes a UUID per call.
    public let forwardsCallIDs: Bool
    private let resultCheck = ResultSchemaCheck()
    /// Whether ``recorder`` is set (asked per call without copying the recorder out).
    private let records: Bool

    /// A caller over `backend`.
    public init(
        backend: any SkillBackend, approval: any ApprovalHandler = DenyAllApproval(), recorder: (any CallRecorder)? = nil,
        sessionID: String = "", sessionContext: SessionContext = SessionContext(), forwardsCallIDs: Bool = false,
        preApproval: (any PreApproval)? = nil
    ) {
        self.backend = backend
        self.approval = approval
        self.preApproval = preApproval
        self.recorder = recorder
        records = recorder != nil
        self.sessionID = sessionID
        self.sessionContext = sessionContext
        self.forwardsCallIDs = forwardsCallIDs
    }

    /// Makes one call and returns how it ended; never throws. `started` hears when the call begins (after
    /// the recorder's decision: whether its result is a replay), before anyone is asked.
    nonisolated(nonsending) public func call(
        _ request: ToolCallRequest, started: (@Sendable (_ replayed: Bool) -> Void)? = nil
    ) async -> ToolCallOutcome {
        let begin = Posix.monotonicNanoseconds()
        // Read once: each use of the stored existential would copy it out again.
        let recorder = self.recorder
        let parsed = request.arguments.parsed()
        let arguments = try? parsed.get()
        var call = RecordedCall(request, arguments: arguments, sessionID: sessionID)
        let decision = recorder?.decision(for: call) ?? .run(idempotencyKey: nil)
        call.idempotencyKey = decision.idempotencyKey
        let handle = recorder?.callStarted(call)
        var attempt = Attempt()
        if case .replay(let result, _) = decision {
            started?(true)
            attempt.result = .success(result)
            attempt.replayed = true
        } else {
            started?(false)
            await run(request, parsed, decision: decision, recorded: &call, attempt: &attempt)
        }
        let elapsed = Posix.monotonicNanoseconds() &- begin
        let outcome = ToolCallOutcome(
            tool: request.tool, result: attempt.result ?? .failure(HostError(.cancelled, "not run")), seconds: Double(elapsed &- min(elapsed, attempt.waited)) / 1e9,
            replayed: attempt.replayed, refused: attempt.refused)
        if let recorder, let handle { recorder.callFinished(handle, call: call, outcome: outcome) }
        return outcome
    }

    /// What one call came to while it ran.
    private struct Attempt {
        /// Every path of ``run`` sets it (nil: none did; the call counts as not run).
        var result: Result<JSONValue, HostError>?
        var replayed = false
        var refused = false
        /// Nanoseconds spent waiting for a person.
        var waited: UInt64 = 0
    }

    /// Steps 3 to 6 for a call that is not a replay. Inlined into ``call(_:started:)``: one `async` frame
    /// fewer per call (each one of a call's frames costs its task a slab of memory).
    @inline(__always)
    nonisolated(nonsending) private func run(
        _ request: ToolCallRequest, _ parsed: Result<JSONValue, JSONParseError>, decision: CallDecision,
        recorded call: inout RecordedCall, attempt: inout Attempt
    ) async {
        guard let tool = request.tool else {
            attempt.result = .failure(request.lookupFailure ?? HostError(
                .notFound, request.unknownTool ?? "unknown tool \"\(request.toolName)\"; call only the tools offered"))
            return
        }
        let arguments: JSONValue
        switch parsed {
        case .success(let value):
            arguments = value
        case .failure(let error):
            attempt.result = .failure(HostError(
                .invalidArguments,
                "the arguments of \(tool.id) are not valid JSON (\(error)); send one JSON object that matches its parameters",
                skillID: tool.id))
            return
        }
        let prepared: PreparedCall
        do {
            prepared = try backend.prepare(skillID: tool.id, arguments: arguments)
        } catch {
            attempt.result = .failure(error)
            return
        }
        if case .confirmRetry(let reason, _) = decision,
            let refusal = await ask(ApprovalRequest(skill: prepared.skill, arguments: arguments, reason: .retry(reason)), &attempt)
        {
            attempt.result = .failure(refusal)
            return
        }
        if prepared.needsApproval, preApproval?.preApproves(prepared, context: sessionContext) != true,
            let refusal = await ask(ApprovalRequest(skill: prepared.skill, arguments: arguments), &attempt)
        {
            attempt.result = .failure(refusal)
            return
        }
        var options = InvocationOptions(
            sessionID: sessionID, callID: forwardsCallIDs ? request.callID : nil,
            idempotencyKey: call.idempotencyKey ?? IdempotencyKey.fallback(sessionID: sessionID, callID: request.callID),
            sessionContext: sessionContext, approved: true)
        // The record names the worker that ran the call, even one that timed out or crashed.
        let attribution = records ? WorkerAttribution() : nil
        options.attribution = attribution
        // Straight to the backend that owns the call: one `async` frame, not one per forwarding layer.
        let backend = self.backend.runner(for: prepared)
        var result: Result<JSONValue, HostError>
        do { result = .success(try await backend.run(prepared, options: options)) } catch { result = .failure(error) }
        call.workerPID = attribution?.workerPID
        // Only a tool with an output schema is checked (its manifest is read in place, not copied out).
        if case .success(let value) = result, tool.storage.skill.outputSchema != nil,
            let failure = resultCheck.failure(of: value, from: tool.skill)
        {
            result = .failure(failure)
        }
        attempt.result = result
    }

    /// Asks ``approval`` about `request` (the time it takes is not the call's); returns the refusal, or nil
    /// when the call may run. A cancelled task stops waiting at once (the question may stay unanswered).
    nonisolated(nonsending) private func ask(_ request: ApprovalRequest, _ attempt: inout Attempt) async -> HostError? {
        let asked = Posix.monotonicNanoseconds()
        defer { attempt.waited &+= Posix.monotonicNanoseconds() &- asked }
        let answer = CallCompletion<Bool>()
        let approval = self.approval
        let question = Task { answer.finish(.success(await approval.approve(request))) }
        let decided = await withTaskCancellationHandler {
            await answer.wait()
        } onCancel: {
            question.cancel()
            answer.finish(.failure(HostError(.cancelled, "the call was cancelled while waiting for approval")))
        }
        let skill = request.skill
        switch decided {
        case .success(true):
            return nil
        case .success(false):
            attempt.refused = true
            let text = approval.refusal(of: request)
                ?? (request.note != nil
                    ? "\(skill.id) was not run again: \(request.reason.retryText ?? ""); retry only after checking (pass --yes or answer y to retry)"
                    : "skill \(skill.id) was not approved; nothing was run")
            return HostError(.denied, text, skillID: skill.id, pluginID: skill.pluginID.isEmpty ? nil : skill.pluginID)
        case .failure(var cancelled):
            // Not run: recorded like a refusal (it cannot have taken effect), with its kind `cancelled`.
            attempt.refused = true
            cancelled.skillID = skill.id
            return cancelled
        }
    }
}

extension ApprovalRequest.Reason {
    /// What happened before, for a retry.
    var retryText: String? {
        if case .retry(let why) = self { return why }
        return nil
    }
}
