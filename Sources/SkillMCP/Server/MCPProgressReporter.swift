import SkillHostCore
import SkillJSON
import Synchronization

/// Sends `notifications/progress` for one long call (spec 2025-11-25, basic/utilities/progress): after each
/// `interval` the call is still running, `progress` grows by one step of seconds and `message` says how
/// long it has run. ``stop()`` ends it before the call's answer is sent, so no progress follows the answer.
final class MCPProgressReporter: Sendable {
    private let stopped = Mutex(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(token: JSONValue, skillID: String, interval: Duration, send: @escaping MCPServer.Sink) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let made = Task { [self] in
            var elapsed = 0.0
            while true {
                try? await Task.sleep(for: interval)
                elapsed += seconds
                let line = JSONRPCMessage.notificationLine(method: "notifications/progress", params: [
                    "progressToken": token, "progress": .double(elapsed),
                    "message": .string("\(skillID) is still running (\(SecondsText.format(elapsed)) s)"),
                ])
                let sent = stopped.withLock { stopped -> Bool in
                    if stopped { return false }
                    send(line)
                    return true
                }
                if !sent { return }
            }
        }
        task.withLock { $0 = made }
    }

    /// Ends the notifications; none is sent after this returns.
    func stop() {
        stopped.withLock { $0 = true }
        task.withLock { $0?.cancel() }
    }
}
