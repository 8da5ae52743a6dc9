import SkillJSON
import SkillStore

/// A ``ConversationHistory`` that writes every appended message to the SQLite history at once (so a crash
/// loses nothing already said) and keeps the session's messages in memory for the model. Tool-call
/// arguments are stored with `writeOnly` fields and secrets redacted; the live copy keeps them.
public actor PersistentHistory: ConversationHistory {
    /// The database.
    public let store: HistoryStore
    /// The session.
    public let sessionID: String
    private let redactor: SecretRedactor
    private let schemas: [String: JSONValue]
    private let report: @Sendable (StoreError) -> Void
    private var stored: [ChatMessage]

    /// The history of `sessionID`, starting with `messages` (what ``SessionResume`` loaded; not written
    /// again). `tools` give the schemas used to redact tool-call arguments; `report` hears about failed writes.
    public init(
        store: HistoryStore, sessionID: String, messages: [ChatMessage] = [], tools: [AgentTool] = [],
        redactor: SecretRedactor = SecretRedactor(), report: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.store = store
        self.sessionID = sessionID
        self.stored = messages
        self.redactor = redactor
        self.report = report
        let names = ToolNameMap(skillIDs: tools.map(\.skillID))
        var schemas: [String: JSONValue] = [:]
        for tool in tools { if let name = names.toolName(for: tool.skillID) { schemas[name] = tool.parameters } }
        self.schemas = schemas
    }

    public func messages() -> [ChatMessage] { stored }

    public func append(_ messages: [ChatMessage]) {
        stored.append(contentsOf: messages)
        do {
            try store.appendMessages(messages.map(record), session: sessionID)
        } catch {
            report(error)
        }
    }

    private func record(_ message: ChatMessage) -> MessageRecord {
        let calls: String? =
            message.toolCalls.isEmpty
            ? nil
            : JSONValue.array(
                message.toolCalls.map { call in
                    let arguments: String =
                        if let parsed = try? call.parsedArguments() {
                            redactor.redact(parsed, schema: schemas[call.name]).serialized()
                        } else {
                            redactor.scrub(call.argumentsText)
                        }
                    return ["id": .string(call.id), "name": .string(call.name), "arguments": .string(arguments)]
                }
            ).serialized()
        return MessageRecord(
            role: message.role.rawValue, content: redactor.scrub(message.content), toolCallsJSON: calls,
            toolCallID: message.toolCallID)
    }
}

extension ChatMessage {
    /// The message a stored record holds (unknown roles read as `user`).
    public init(_ record: MessageRecord) {
        var calls: [ToolCall] = []
        if let text = record.toolCallsJSON, case .array(let items)? = try? JSONValue(parsing: text) {
            calls = items.compactMap { item in
                guard let id = item["id"]?.stringValue, let name = item["name"]?.stringValue else { return nil }
                return ToolCall(id: id, name: name, argumentsText: item["arguments"]?.stringValue ?? "{}")
            }
        }
        self.init(
            role: Role(rawValue: record.role) ?? .user, content: record.content, toolCalls: calls, toolCallID: record.toolCallID)
    }
}
