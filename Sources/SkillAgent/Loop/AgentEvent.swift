import SkillCalls
import SkillHostCore
import SkillJSON

/// Something that happened during a turn. The CLI renders these, `--json` prints them, tests assert them.
/// Plain values: they can be stored, sent over MCP or written to a trace later.
public enum AgentEvent: Sendable, Equatable {
    /// The turn moved to another state.
    case stateChanged(AgentState)
    /// A piece of the model's text.
    case token(String)
    /// A skill call began to run (after the model asked for it; pending calls are the tool calls of the
    /// preceding ``messageCompleted(_:)``).
    case skillStarted(SkillCallInfo)
    /// A skill call returned a result (the full result; the model gets a trimmed copy).
    case skillSucceeded(SkillCallInfo, result: JSONValue, seconds: Double)
    /// A skill call failed; the error also went back to the model as the tool result.
    case skillFailed(SkillCallInfo, error: HostError, seconds: Double)
    /// An assistant message is complete: text, tool calls, or both. The last one of a turn is the answer.
    case messageCompleted(ChatMessage)
    /// The turn failed without an answer; the state is `failed`.
    case turnFailed(AgentError)
    /// One line from the model provider about the connection (said once per session), e.g. that
    /// streaming was switched off because the server cannot stream with tools.
    case notice(String)

    public static func == (lhs: AgentEvent, rhs: AgentEvent) -> Bool {
        switch (lhs, rhs) {
        case (.stateChanged(let a), .stateChanged(let b)): return a == b
        case (.token(let a), .token(let b)): return a == b
        case (.skillStarted(let a), .skillStarted(let b)): return a == b
        case (.skillSucceeded(let a, let r, _), .skillSucceeded(let b, let s, _)): return a == b && r == s
        case (.skillFailed(let a, let e, _), .skillFailed(let b, let f, _)):
            return a == b && e.kind == f.kind && e.message == f.message
        case (.messageCompleted(let a), .messageCompleted(let b)): return a == b
        case (.turnFailed(let a), .turnFailed(let b)): return a == b
        case (.notice(let a), .notice(let b)): return a == b
        default: return false
        }
    }
}

/// Which call an event is about.
public struct SkillCallInfo: Sendable, Equatable {
    /// The model's call id.
    public var callID: String
    /// The tool name the model used.
    public var toolName: String
    /// The skill it maps to, or nil for an unknown tool.
    public var skillID: String?
    /// The arguments as the model sent them (text, since they may not be JSON).
    public var argumentsText: String
    /// The skill's result summary template, if its manifest has one (see ``ResultSummary``).
    public var summaryTemplate: String?
    /// The result is an earlier call's, returned without running the skill (same idempotency key).
    public var replayed = false

    /// Info with these parts.
    public init(callID: String, toolName: String, skillID: String?, argumentsText: String, summaryTemplate: String? = nil) {
        self.callID = callID
        self.toolName = toolName
        self.skillID = skillID
        self.argumentsText = argumentsText
        self.summaryTemplate = summaryTemplate
    }

    /// `result` on one line in plain words, with the skill's template when it fits (the call card's text).
    public func summary(of result: JSONValue, limit: Int = 120) -> String {
        ResultSummary.line(for: result, template: summaryTemplate, limit: limit)
    }
}
