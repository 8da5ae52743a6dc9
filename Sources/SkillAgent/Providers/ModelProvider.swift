import SkillCalls
import SkillJSON

/// A chat model that can call tools: the OpenAI-compatible HTTP client, the offline planner, or a test's
/// scripted model. The agent loop talks to models only through this protocol.
///
/// Implementation requirements: thread-safe; `respond` streams zero or more ``ModelStreamEvent/token(_:)``
/// events and ends with exactly one ``ModelStreamEvent/reply(_:)``, or finishes by throwing a
/// ``ModelProviderError``. Cancelling the consumer's task stops the request.
public protocol ModelProvider: Sendable {
    /// A short name for messages and `--json` output, e.g. `openai:gpt-4o-mini` or `offline`.
    var name: String { get }

    /// Sends the conversation and streams the reply.
    func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error>

    /// Whether requests must keep to the agent's ``ToolBudget`` (true for models with a context window;
    /// the offline planner reads every tool).
    var limitsTools: Bool { get }
}

extension ModelProvider {
    public var limitsTools: Bool { true }
}

/// What the agent asks a model for: the conversation so far and the tools it may call.
public struct ModelRequest: Sendable, Equatable {
    /// Whether and how the model may call tools (OpenAI's `tool_choice`).
    public enum ToolChoice: String, Sendable, Equatable {
        /// The model decides.
        case auto
        /// No tool calls: answer in text (used at the step cap).
        case none
    }

    /// The conversation, oldest first (already trimmed to the token budget).
    public var messages: [ChatMessage]
    /// The tools offered, with their OpenAI-safe names.
    public var tools: [ToolSpec]
    /// Whether the model may call them.
    public var toolChoice: ToolChoice

    /// A request with these parts.
    public init(messages: [ChatMessage], tools: [ToolSpec], toolChoice: ToolChoice = .auto) {
        self.messages = messages
        self.tools = tools
        self.toolChoice = toolChoice
    }
}

/// One tool as a model sees it: an OpenAI-safe name, a description and the parameter schema, plus the
/// skill's examples and title (which the offline planner reads; HTTP providers ignore them).
public struct ToolSpec: Sendable, Equatable {
    /// The tool name (see ``ToolNameMap``).
    public var name: String
    /// The skill behind it.
    public var tool: SkillTool

    /// A spec for `tool` under `name`.
    public init(name: String, tool: SkillTool) {
        self.name = name
        self.tool = tool
    }
}

/// What a model streams: text tokens as they come, then the whole reply.
public enum ModelStreamEvent: Sendable, Equatable {
    /// A piece of the reply's text.
    case token(String)
    /// The complete reply (its text is the concatenation of the tokens).
    case reply(ModelReply)
    /// One line about how the provider talks to its server, said once per session (e.g. "streaming is
    /// off: the server sent an empty stream"). Not part of the answer.
    case notice(String)
}

/// A model's complete reply: text, tool calls, or both.
public struct ModelReply: Sendable, Equatable {
    /// The text ("" when the model only calls tools).
    public var content: String
    /// The calls, in the order the model made them.
    public var toolCalls: [ToolCall]
    /// Why the model stopped (`stop`, `tool_calls`, `length`, …), when the server said.
    public var finishReason: String?

    /// A reply with these parts.
    public init(content: String, toolCalls: [ToolCall] = [], finishReason: String? = nil) {
        self.content = content
        self.toolCalls = toolCalls
        self.finishReason = finishReason
    }
}
