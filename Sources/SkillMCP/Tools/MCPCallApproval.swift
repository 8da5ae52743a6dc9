import SkillCalls
import SkillHostCore
import Synchronization

/// What one `tools/call` of the 2026-07-28 revision brings to its approval, bound for the call's task by the
/// server: whether the client can be asked (it declared `elicitation` forms), and whether it already answered
/// this very call (an `inputResponses` with a verified `requestState`). ``MCPApprovalPolicy`` reads it when
/// the registry leaves a call to ask about; when it would ask, it records the question here and refuses, and
/// the server answers `resultType: "input_required"` instead of the refusal.
final class MCPCallApproval: Sendable {
    @TaskLocal static var current: MCPCallApproval?

    /// The client's answer to the approval question, when it sent one.
    enum Answer: Sendable, Equatable {
        case none
        case approved
        case declined(String)
    }

    /// Whether the client can answer an approval question.
    let canAsk: Bool
    /// Its answer, verified.
    let answer: Answer
    private let question = Mutex<ApprovalRequest?>(nil)

    init(canAsk: Bool, answer: Answer) {
        self.canAsk = canAsk
        self.answer = answer
    }

    /// The question the policy would have asked (set when it refused because the client can be asked).
    var asked: ApprovalRequest? { question.withLock { $0 } }

    func ask(_ request: ApprovalRequest) { question.withLock { $0 = request } }

    /// The key of the approval question in `inputRequests` and `inputResponses`.
    static let inputKey = "skillhost_approval"
}
