import SkillJSON

/// One message of a conversation, in the shape every chat model understands: a role, text, and for
/// assistant messages the tool calls the model made, for tool messages the id of the call they answer.
///
/// A value type: histories, providers and events pass copies, so nothing is shared between threads.
public struct ChatMessage: Sendable, Equatable {
    /// Who wrote a message.
    public enum Role: String, Sendable, Equatable {
        /// Instructions to the model.
        case system
        /// The person using the agent.
        case user
        /// The model: text, tool calls, or both.
        case assistant
        /// The result of one tool call, sent back to the model.
        case tool
    }

    /// Who wrote it.
    public var role: Role
    /// The text ("" when an assistant message only calls tools).
    public var content: String
    /// The calls an assistant message makes, in the order the model made them.
    public var toolCalls: [ToolCall]
    /// For a tool message: the id of the call it answers.
    public var toolCallID: String?

    /// A message with these parts.
    public init(role: Role, content: String, toolCalls: [ToolCall] = [], toolCallID: String? = nil) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
    }

    /// Instructions to the model.
    public static func system(_ text: String) -> ChatMessage { ChatMessage(role: .system, content: text) }
    /// What the user said.
    public static func user(_ text: String) -> ChatMessage { ChatMessage(role: .user, content: text) }
    /// What the model said, with the tools it called.
    public static func assistant(_ text: String, toolCalls: [ToolCall] = []) -> ChatMessage {
        ChatMessage(role: .assistant, content: text, toolCalls: toolCalls)
    }
    /// The result of the call `id`.
    public static func tool(callID id: String, content: String) -> ChatMessage {
        ChatMessage(role: .tool, content: content, toolCallID: id)
    }
}
