import SkillJSON
import SkillStore
import Synchronization

/// Where a run's state is kept so it can resume: the history database (``HistoryStore``), or memory in
/// tests. Every write is durable when it returns.
public protocol WorkflowJournal: Sendable {
    func saveRun(_ run: WorkflowRunRecord) throws
    func saveStep(_ step: WorkflowStepRecord, run runID: String) throws
    func run(id: String) throws -> WorkflowRunRecord?
    func steps(run runID: String) throws -> [WorkflowStepRecord]
}

extension HistoryStore: WorkflowJournal {
    public func saveRun(_ run: WorkflowRunRecord) throws { try saveWorkflowRun(run) }
    public func saveStep(_ step: WorkflowStepRecord, run runID: String) throws { try saveWorkflowStep(step, run: runID) }
    public func run(id: String) throws -> WorkflowRunRecord? { try workflowRun(id: id) }
    public func steps(run runID: String) throws -> [WorkflowStepRecord] { try workflowSteps(run: runID) }
}

/// A journal in memory (tests; a run that need not survive its process).
public final class MemoryWorkflowJournal: WorkflowJournal {
    private let state = Mutex<(runs: [String: WorkflowRunRecord], steps: [String: [String: WorkflowStepRecord]])>(([:], [:]))
    public init() {}
    public func saveRun(_ run: WorkflowRunRecord) throws {
        state.withLock {
            if let old = $0.runs[run.id] {
                var updated = old
                updated.status = run.status
                updated.finishedMilliseconds = run.finishedMilliseconds
                $0.runs[run.id] = updated
            } else {
                $0.runs[run.id] = run
            }
        }
    }
    public func saveStep(_ step: WorkflowStepRecord, run runID: String) throws { state.withLock { $0.steps[runID, default: [:]][step.stepID] = step } }
    public func run(id: String) throws -> WorkflowRunRecord? { state.withLock { $0.runs[id] } }
    public func steps(run runID: String) throws -> [WorkflowStepRecord] { state.withLock { Array(($0.steps[runID] ?? [:]).values) } }
}
