/// One stored message of a session, in the agent's shape (role, text, tool calls, tool-call id).
public struct MessageRecord: Sendable, Equatable {
    /// Its place in the session, from 0.
    public var position: Int
    /// `user`, `assistant`, `tool` (or `system`).
    public var role: String
    /// The text.
    public var content: String
    /// An assistant message's tool calls as a JSON array of `{"id", "name", "arguments"}`, or nil.
    public var toolCallsJSON: String?
    /// A tool message's call id.
    public var toolCallID: String?
    /// Unix milliseconds.
    public var createdMilliseconds: Int64

    /// A record with these parts.
    public init(
        position: Int = 0, role: String, content: String, toolCallsJSON: String? = nil, toolCallID: String? = nil,
        createdMilliseconds: Int64 = 0
    ) {
        self.position = position
        self.role = role
        self.content = content
        self.toolCallsJSON = toolCallsJSON
        self.toolCallID = toolCallID
        self.createdMilliseconds = createdMilliseconds
    }
}
