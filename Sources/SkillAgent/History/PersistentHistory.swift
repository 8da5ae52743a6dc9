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
    private let names: ToolNameMap
    private let planned: PlannedCalls?

    /// The history of `sessionID`, starting with `messages` (what ``SessionResume`` loaded; not written
    /// again). `tools` give the schemas used to redact tool-call arguments; `report` hears about failed writes.
    public init(
        store: HistoryStore, sessionID: String, messages: [ChatMessage] = [], tools: [AgentTool] = [],
        redactor: SecretRedactor = SecretRedactor(), planned: PlannedCalls? = nil,
        report: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.planned = planned
        self.store = store
        self.sessionID = sessionID
        self.stored = messages
        self.redactor = redactor
        self.report = report
        let names = ToolNameMap(skillIDs: tools.map(\.skillID))
        self.names = names
        var schemas: [String: JSONValue] = [:]
        for tool in tools { if let name = names.toolName(for: tool.skillID) { schemas[name] = tool.parameters } }
        self.schemas = schemas
    }

    public func messages() -> [ChatMessage] { stored }

    public func append(_ messages: [ChatMessage]) {
        stored.append(contentsOf: messages)
        let records = messages.map(record)
        // The calls of the last assistant message get their rows in the same transaction (see PlannedCalls).
        let asking = planned == nil ? nil : Array(zip(messages, records)).last(where: { $0.0.role == ChatMessage.Role.assistant && !$0.0.toolCalls.isEmpty })
        let now = store.now()
        let calls = (asking?.0.toolCalls ?? []).map { call in
            let skillID = names.skillID(for: call.name)
            // The key the recorder's decision computes, written now so the finish need not touch its index.
            let key: String? =
                if let skillID, let arguments = try? call.parsedArguments(), case .object = arguments {
                    CallKey.make(sessionID: sessionID, skillID: skillID, arguments: arguments)
                } else {
                    nil
                }
            return CallRecord(
                callID: call.id, sessionID: sessionID, skillID: skillID ?? call.name,
                argumentsJSON: Self.arguments(of: call.id, in: asking?.1), status: .started, startedMilliseconds: now,
                idempotencyKey: key)
        }
        do {
            // A tool message for a call whose row was written ahead but never started (refused at the step
            // cap, cancelled before it ran) closes that row: it was not run.
            for message in messages where message.role == .tool {
                guard let id = message.toolCallID, let row = planned?.take(id)?.row else { continue }
                let text = redactor.scrub(message.content)
                try store.recordFinish(
                    row,
                    with: CallOutcome(
                        status: .failed, errorKind: "notRun", error: "not run: " + String(text.prefix(300)), durationMilliseconds: 0))
            }
            let rows = try store.appendMessages(records, session: sessionID, calls: calls)
            for (call, row) in zip(calls, rows) { planned?.plan(row, callID: call.callID, idempotencyKey: call.idempotencyKey) }
        } catch {
            report(error)
        }
    }

    /// The redacted arguments text of call `id` in a stored message's tool calls.
    private static func arguments(of id: String, in record: MessageRecord?) -> String {
        guard let text = record?.toolCallsJSON, case .array(let items)? = try? JSONValue(parsing: text) else { return "{}" }
        return items.first { $0["id"]?.stringValue == id }?["arguments"]?.stringValue ?? "{}"
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
