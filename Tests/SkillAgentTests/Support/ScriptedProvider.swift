import SkillAgent
import Synchronization

/// A model that answers from a script and records what it was asked. When `toolChoice` is `none` it
/// answers with `finalAnswer` (as a well-behaved model would); otherwise it plays the next scripted reply.
final class ScriptedProvider: ModelProvider {
    private let replies: Mutex<[ModelReply]>
    private let recorded = Mutex<[ModelRequest]>([])
    let finalAnswer: String

    init(_ replies: [ModelReply], finalAnswer: String = "Final answer without tools.") {
        self.replies = Mutex(replies)
        self.finalAnswer = finalAnswer
    }

    var name: String { "scripted" }
    var requests: [ModelRequest] { recorded.withLock { $0 } }

    func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        recorded.withLock { $0.append(request) }
        let reply: ModelReply? =
            request.toolChoice == .none
            ? ModelReply(content: finalAnswer, finishReason: "stop")
            : replies.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        return AsyncThrowingStream { continuation in
            guard let reply else {
                continuation.finish(throwing: ModelProviderError(.invalidResponse, "script exhausted"))
                return
            }
            if !reply.content.isEmpty { continuation.yield(.token(reply.content)) }
            continuation.yield(.reply(reply))
            continuation.finish()
        }
    }
}

/// Runs one turn and returns all its events.
func events(of agent: Agent, _ text: String) async -> [AgentEvent] {
    var all: [AgentEvent] = []
    for await event in agent.send(text) { all.append(event) }
    return all
}

extension [AgentEvent] {
    /// The states the turn went through.
    var states: [AgentState] { compactMap { if case .stateChanged(let state) = $0 { state } else { nil } } }
    /// The final answer's text.
    var answer: String? {
        last { if case .messageCompleted(let message) = $0 { message.toolCalls.isEmpty } else { false } }
            .flatMap { if case .messageCompleted(let message) = $0 { message.content } else { nil } }
    }
    /// The failures reported by skills.
    var skillFailures: [HostErrorSummary] {
        compactMap { if case .skillFailed(let info, let error, _) = $0 { HostErrorSummary(callID: info.callID, kind: error.kind.rawValue, message: error.message) } else { nil } }
    }
    /// The call ids that succeeded, in event order.
    var successes: [String] { compactMap { if case .skillSucceeded(let info, _, _) = $0 { info.callID } else { nil } } }
    /// The turn failure, if any.
    var turnFailure: AgentError? { compactMap { if case .turnFailed(let error) = $0 { error } else { nil } }.first }
}

/// What a test checks about a skill failure.
struct HostErrorSummary: Equatable {
    var callID: String
    var kind: String
    var message: String
}
