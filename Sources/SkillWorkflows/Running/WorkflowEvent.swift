import SkillJSON

/// The state of a step: the four a tool call's card has, and `skipped` (its condition was false, or a step
/// it needs did not succeed).
public enum StepState: String, Sendable, Equatable {
    case pending, running, done, failed, skipped
}

/// What a run reports as it goes, for cards (`workflow run`) and `--json` event lines.
public enum WorkflowEvent: Sendable {
    /// The run began (or resumed): every step with its state (done steps of a resumed run are `done`).
    case runStarted(runID: String, workflow: String, steps: [(id: String, skill: String, state: StepState)], resumed: Bool)
    /// A step's call began (`attempt` from 1).
    case stepStarted(stepID: String, skill: String, attempt: Int)
    /// A try failed and the step waits `delay` seconds before the next.
    case stepRetrying(stepID: String, attempt: Int, delay: Double, error: String)
    /// A step ended: `done`, `failed` or `skipped`, with its time, and a summary or the error.
    case stepFinished(stepID: String, state: StepState, seconds: Double, text: String, output: JSONValue?)
    /// The run's `deliver` wrote `bytes` bytes to `path`, or failed with `error` (the run then fails).
    case delivered(path: String?, bytes: Int, error: String?)
    /// The run ended: `done` or `failed`.
    case runFinished(runID: String, state: StepState, seconds: Double, output: JSONValue)

    /// One JSON object per event (`--json`): `{"event": "step_finished", …}`.
    public var json: JSONValue {
        switch self {
        case .runStarted(let runID, let workflow, let steps, let resumed):
            return [
                "event": "run_started", "run": .string(runID), "workflow": .string(workflow), "resumed": .bool(resumed),
                "steps": .array(steps.map { ["id": .string($0.id), "skill": .string($0.skill), "state": .string($0.state.rawValue)] }),
            ]
        case .stepStarted(let id, let skill, let attempt):
            return ["event": "step_started", "step": .string(id), "skill": .string(skill), "attempt": .int(Int64(attempt))]
        case .stepRetrying(let id, let attempt, let delay, let error):
            return ["event": "step_retrying", "step": .string(id), "attempt": .int(Int64(attempt)), "delay_seconds": .double(delay), "error": .string(error)]
        case .stepFinished(let id, let state, let seconds, let text, let output):
            var object: JSONObject = ["event": "step_finished", "step": .string(id), "state": .string(state.rawValue), "seconds": .double(seconds)]
            object[state == .done ? "summary" : state == .failed ? "error" : "reason"] = .string(text)
            if let output { object["output"] = output }
            return .object(object)
        case .delivered(let path, let bytes, let error):
            if let error { return ["event": "delivered", "ok": false, "error": .string(error)] }
            return ["event": "delivered", "ok": true, "path": .string(path ?? ""), "bytes": .int(Int64(bytes))]
        case .runFinished(let runID, let state, let seconds, let output):
            return ["event": "run_finished", "run": .string(runID), "state": .string(state.rawValue), "seconds": .double(seconds), "outputs": output]
        }
    }
}
