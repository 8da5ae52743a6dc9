import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization

/// Approval by the person at the page: the same ``ApprovalHandler`` the terminal's prompt implements, asked
/// by the tool-call layer before the skill's clock starts. Each question goes to the page as an `approval`
/// event (id, skill, permission, arguments, note) and waits for Allow or Deny (`POST /api/approve`); a
/// stopped turn (task cancelled) or a stopping server answers Deny.
public final class WebApproval: ApprovalHandler {
    private let events: WebEvents
    private let waiting = Mutex<[String: CheckedContinuation<Bool, Never>]>([:])
    private let counter = Atomic<Int>(0)

    /// Approval asked through `events`.
    public init(events: WebEvents) { self.events = events }

    public func approve(_ request: ApprovalRequest) async -> Bool {
        let id = "approval-\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                waiting.withLock { $0[id] = continuation }
                var event: JSONObject = [
                    "event": "approval", "id": .string(id), "skill": .string(request.skill.id),
                    "title": .string(request.skill.title), "permission": .string(request.skill.permission.rawValue),
                    "arguments": request.arguments,
                ]
                if let note = request.note { event["note"] = .string(note) }
                events.publish(.object(event))
                if Task.isCancelled { self.answer(id, allow: false) }
            }
        } onCancel: {
            self.answer(id, allow: false)
        }
        events.publish(["event": "approvalAnswered", "id": .string(id), "allowed": .bool(answer)])
        return answer
    }

    public func refusal(of request: ApprovalRequest) -> String? {
        let setting = request.skill.settingPath("approval")
        switch request.reason {
        case .permission:
            return "skill \(request.skill.id) (\(request.skill.permission.rawValue)) was denied at the page; press Allow to run it, or set \(setting) to \"allow\" in the registry"
        case .retry(let why):
            return "\(request.skill.id) was not run again: \(why); retry only after checking"
        }
    }

    /// Answers question `id`; false when no such question waits.
    @discardableResult
    public func answer(_ id: String, allow: Bool) -> Bool {
        guard let continuation = waiting.withLock({ $0.removeValue(forKey: id) }) else { return false }
        continuation.resume(returning: allow)
        return true
    }

    /// Denies every waiting question (the turn stops or the server stops).
    public func denyAll() {
        let all = waiting.withLock { waiting -> [CheckedContinuation<Bool, Never>] in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for continuation in all { continuation.resume(returning: false) }
    }
}
