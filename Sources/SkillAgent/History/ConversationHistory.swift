/// Where a conversation's messages are kept. The agent appends every message of a turn (user, assistant,
/// tool) and reads them all back; trimming for the model happens on the copy it sends, so the stored
/// history never loses anything. An SQLite-backed store can replace ``InMemoryHistory`` later.
///
/// Implementation requirements: thread-safe; `messages()` returns what was appended, in order.
public protocol ConversationHistory: Sendable {
    /// Every message, oldest first.
    func messages() async -> [ChatMessage]
    /// Appends messages at the end, in order.
    func append(_ messages: [ChatMessage]) async
}

/// A history that lives as long as the process.
public actor InMemoryHistory: ConversationHistory {
    private var stored: [ChatMessage]

    /// An empty history, or one that starts with `messages`.
    public init(_ messages: [ChatMessage] = []) { stored = messages }

    public func messages() -> [ChatMessage] { stored }

    public func append(_ messages: [ChatMessage]) { stored.append(contentsOf: messages) }
}
