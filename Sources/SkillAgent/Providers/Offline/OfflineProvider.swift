import Foundation
import SkillJSON

/// The embedded model used when no server is configured, so `skillhost chat` works on a fresh machine.
///
/// A deterministic planner, not a language model: it splits the last user request into clauses ("…, then
/// …"), matches each against the tools' example utterances, and asks for one skill call per step through
/// the normal loop. When every planned call has its result (or tools are switched off), it phrases the
/// answer from the tool results, and says plainly which parts of the request it could not map.
public struct OfflineProvider: ModelProvider {
    private let now: @Sendable () -> Date
    private let timeZone: TimeZone
    private let disabledSkills: @Sendable () -> [DisabledSkill]

    /// A planner; `now` and `timeZone` fill relative dates ("tomorrow at 10am"). `disabledSkills` are the
    /// installed skills that are switched off: a request for one is answered with its name and the
    /// `skillhost enable` command, not with "could not map".
    public init(
        now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current,
        disabledSkills: @escaping @Sendable () -> [DisabledSkill] = { [] }
    ) {
        self.now = now
        self.timeZone = timeZone
        self.disabledSkills = disabledSkills
    }

    public var name: String { "offline" }

    /// The planner has no context window: it reads every tool.
    public var limitsTools: Bool { false }

    public func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        let reply = self.reply(to: request)
        return AsyncThrowingStream { continuation in
            // Stream the text in word-sized tokens, as a server would.
            var pending = Substring(reply.content)
            while !pending.isEmpty {
                let end = pending.dropFirst().firstIndex(of: " ") ?? pending.endIndex
                continuation.yield(.token(String(pending[..<end])))
                pending = pending[end...]
            }
            continuation.yield(.reply(reply))
            continuation.finish()
        }
    }

    /// The whole reply to `request`.
    func reply(to request: ModelRequest) -> ModelReply {
        let messages = request.messages
        guard
            let userIndex = messages.lastIndex(where: { $0.role == .user && $0.content != AgentConfiguration.stepCapPrompt })
        else {
            return ModelReply(content: "Tell me what to do, for example: \(Self.examples(request.tools)).", finishReason: "stop")
        }
        let planner = OfflinePlanner(filler: SlotFiller(now: now(), timeZone: timeZone))
        // "and tomorrow?" takes the last request's skill with the new value.
        let text = messages[userIndex].content
        var disabled: [String: DisabledSkill] = [:]
        var plan: OfflinePlan
        if let followUp = FollowUp(planner: planner, tools: request.tools).plan(text, after: Array(messages[..<userIndex])) {
            plan = followUp
        } else {
            (plan, disabled) = DisabledSkill.plan(text, planner: planner, tools: request.tools, disabled: disabledSkills())
        }
        let later = messages[(userIndex + 1)...]
        if plan.steps.isEmpty, !plan.unmapped.contains(where: \.isDisabled),
            let reply = OfflineInstructionStep.reply(to: request, userText: messages[userIndex].content, later: Array(later))
        {
            return reply
        }
        let done = Self.stepsDone(in: Array(later))
        if request.toolChoice == .auto, done < plan.steps.count {
            let step = plan.steps[done]
            let call = ToolCall(id: Self.callPrefix + String(done + 1), name: step.toolName, arguments: step.arguments)
            return ModelReply(content: "", toolCalls: [call], finishReason: "tool_calls")
        }
        let answer = OfflineAnswer(plan: plan, tools: request.tools, timeZone: timeZone, disabled: disabled)
        return ModelReply(content: answer.text(after: Array(later), done: done), finishReason: "stop")
    }

    /// How many planned steps have been asked for in this turn. The call ids carry the step number
    /// (`offline_<n>`), so the count survives history trimming that drops older rounds of the turn.
    static func stepsDone(in messages: [ChatMessage]) -> Int {
        let calls = messages.filter { $0.role == .assistant }.flatMap(\.toolCalls)
        let numbered = calls.compactMap { call -> Int? in
            guard call.id.hasPrefix(callPrefix) else { return nil }
            return Int(call.id.dropFirst(callPrefix.count))
        }
        return max(numbered.max() ?? 0, calls.count)
    }

    static let callPrefix = "offline_"

    /// A few example utterances of the enabled tools, quoted.
    static func examples(_ tools: [ToolSpec]) -> String {
        OfflineAnswer.examples(tools)
    }
}
