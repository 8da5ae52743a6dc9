import SkillCalls
import SkillJSON
import Synchronization

/// The ``CallRecorder`` of a run's steps: each call's idempotency key is the run id and the step id
/// (`RUN/STEP`), the same for every try and for the resumed run, handed to the skill as any call's key is;
/// a step that had started when its run was killed, of a skill that is not idempotent, is questioned before
/// it runs again (``CallDecision/confirmRetry(reason:idempotencyKey:)``: the approval handler decides). The
/// rows themselves go to `inner` (the history), when there is one.
public final class StepCallRecorder: CallRecorder {
    let runID: String
    let inner: (any CallRecorder)?
    private let interrupted: Mutex<Set<String>>

    /// A recorder for run `runID`; `interrupted`: steps that had started when the run was stopped.
    public init(runID: String, inner: (any CallRecorder)?, interrupted: Set<String> = []) {
        self.runID = runID
        self.inner = inner
        self.interrupted = Mutex(interrupted)
    }

    /// The key of step `stepID` of run `runID`.
    public static func key(runID: String, stepID: String) -> String { runID + "/" + stepID }

    public func decision(for call: RecordedCall) -> CallDecision {
        let key = Self.key(runID: runID, stepID: call.callID)
        let wasInterrupted = interrupted.withLock { $0.remove(call.callID) != nil }
        if wasInterrupted, call.tool?.idempotent == false {
            return .confirmRetry(
                reason: "step \(call.callID) had started when run \(runID) was stopped and may have taken effect", idempotencyKey: key)
        }
        return .run(idempotencyKey: key)
    }

    public func callStarted(_ call: RecordedCall) -> CallHandle {
        inner?.callStarted(call) ?? CallHandle(id: nil)
    }

    public func callFinished(_ handle: CallHandle, call: RecordedCall, outcome: ToolCallOutcome) {
        inner?.callFinished(handle, call: call, outcome: outcome)
    }
}
