import Foundation
import SkillHostCore
import SkillWorkflows
import Synchronization

/// Prints a run's events: a card line per step change (`[running] cal (calendar.list_events)`), or, with
/// `--json`, one JSON object per event. Lines are flushed as they are written, so a reader follows along.
final class WorkflowCards: Sendable {
    let json: Bool
    private let skills = Mutex<[String: String]>([:])

    init(json: Bool) { self.json = json }

    func show(_ event: WorkflowEvent) {
        if json {
            print(event.json.serialized())
            fflush(nil)
            return
        }
        switch event {
        case .runStarted(let runID, let workflow, let steps, let resumed):
            skills.withLock { for step in steps { $0[step.id] = step.skill } }
            print("\(resumed ? "resuming" : "run") \(runID): workflow \(workflow)")
            for step in steps {
                print(card(step.state == .done ? "[done] \(name(step.id)) (finished before)" : "[\(step.state.rawValue)] \(name(step.id))"))
            }
        case .stepStarted(let id, _, let attempt):
            print(card("[running] \(name(id))" + (attempt > 1 ? ", try \(attempt)" : "")))
        case .stepRetrying(let id, _, let delay, let error):
            print(card("[retrying] \(name(id)) in \(SecondsText.format(delay)) s: \(error)"))
        case .stepFinished(let id, let state, let seconds, let text, _):
            print(card("[\(state.rawValue)] \(name(id)): \(text) (\(SecondsText.format(seconds)) s)"))
        case .delivered(let path, let bytes, let error):
            print(card(error.map { "[failed] \($0)" } ?? "[delivered] \(bytes) bytes to \(path ?? "")"))
        case .runFinished(let runID, let state, let seconds, _):
            print("run \(runID) \(state.rawValue) in \(SecondsText.format(seconds)) s"
                + (state == .done ? "" : "; fix the failed step and run 'skillhost workflow resume \(runID)'"))
        }
        fflush(nil)
    }

    private func name(_ id: String) -> String { skills.withLock { $0[id].map { "\(id) (\($0))" } ?? id } }
    /// A step's line, indented under its run.
    private func card(_ text: String) -> String { "  " + text }
}
