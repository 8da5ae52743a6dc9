import SkillCalls
import SkillHostCore
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
    /// Tool names of skills that are not idempotent: their calls' earlier calls are read with the message.
    private let lookedUp: Set<String>

    /// The history of `sessionID`, starting with `messages` (what ``SessionResume`` loaded; not written
    /// again). `tools` give the schemas used to redact tool-call arguments; `report` hears about failed writes.
    public init(
        store: HistoryStore, sessionID: String, messages: [ChatMessage] = [], tools: [SkillTool] = [],
        redactor: SecretRedactor = SecretRedactor(), planned: PlannedCalls? = nil,
        report: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.planned = planned
        self.store = store
        self.sessionID = sessionID
        self.stored = messages
        self.redactor = redactor
        self.report = report
        let names = ToolNameMap(skillIDs: tools.map(\.id))
        self.names = names
        var schemas: [String: JSONValue] = [:]
        for tool in tools { if let name = names.toolName(for: tool.id) { schemas[name] = tool.parameters } }
        self.schemas = schemas
        lookedUp = Set(tools.filter { !$0.idempotent }.compactMap { names.toolName(for: $0.id) })
    }

    public func messages() -> [ChatMessage] { stored }

    public func append(_ messages: [ChatMessage]) {
        stored.append(contentsOf: messages)
        // The calls of the last assistant message are planned (see PlannedCalls): its stored `tool_calls`
        // entries carry each call's skill and idempotency key, so a crash while they run leaves enough to
        // mark them `interrupted`; their rows are written when they finish.
        let askingIndex = planned == nil ? nil : messages.lastIndex { $0.role == ChatMessage.Role.assistant && !$0.toolCalls.isEmpty }
        let keys: [String: (skillID: String?, key: String?)] =
            askingIndex.map { index in
                Dictionary(
                    messages[index].toolCalls.map { call in
                        // An instruction skill's activation is recorded under that skill's id.
                        let mapped = names.skillID(for: call.name)
                        let skillID = InstructionTools.activatedSkill(in: call, skillID: mapped ?? call.name) ?? mapped
                        // The key the recorder's decision computes.
                        let key: String? =
                            if let skillID, let arguments = try? call.parsedArguments(), case .object = arguments {
                                IdempotencyKey.make(sessionID: sessionID, skillID: skillID, arguments: arguments)
                            } else {
                                nil
                            }
                        return (call.id, (skillID, key))
                    }, uniquingKeysWith: { _, last in last })
            } ?? [:]
        // The asking message's redacted arguments by call id, kept from building its record (not parsed
        // back out of the stored JSON for each call).
        var askingArguments: [String: String] = [:]
        let records = messages.enumerated().map { offset, message in
            offset == askingIndex ? record(message, plannedKeys: keys, arguments: &askingArguments) : record(message)
        }
        do {
            // A tool message for a planned call that never started (refused at the step cap, cancelled
            // before it ran) closes that call: it was not run.
            for message in messages where message.role == .tool {
                guard let id = message.toolCallID, let call = planned?.takeUnstarted(id) else { continue }
                let text = redactor.scrub(message.content)
                try store.recordFinish(
                    of: call,
                    with: CallOutcome(
                        status: .failed, errorKind: "notRun", error: "not run: " + String(text.prefix(300)), durationMilliseconds: 0))
            }
            // The earlier calls of non-idempotent skills with the same key are read in the same transaction,
            // for the recorder's decisions (StoreCallRecorder.decision(for:)).
            let lookups = askingIndex.map { index in
                messages[index].toolCalls.compactMap { call in lookedUp.contains(call.name) ? keys[call.id]?.key : nil }
            } ?? []
            let (first, earlier) =
                lookups.isEmpty
                ? (try store.appendMessages(records, session: sessionID), [:])
                : try store.appendMessages(records, session: sessionID, lookingUp: lookups)
            guard let askingIndex, let planned else { return }
            let now = store.now()
            for call in messages[askingIndex].toolCalls {
                let planning = keys[call.id]
                planned.plan(
                    CallRecord(
                        callID: call.id, sessionID: sessionID, messagePosition: first + askingIndex,
                        skillID: planning?.skillID ?? call.name, argumentsJSON: askingArguments[call.id] ?? "{}",
                        status: .started, startedMilliseconds: now, idempotencyKey: planning?.key),
                    earlier: planning?.key.flatMap { earlier[$0] })
            }
        } catch {
            report(error)
        }
    }

    /// The stored form of `message`.
    private func record(_ message: ChatMessage) -> MessageRecord {
        var arguments: [String: String] = [:]
        return record(message, plannedKeys: [:], arguments: &arguments)
    }

    /// The stored form of `message`; `plannedKeys` give the skill and idempotency key of planned calls;
    /// `arguments` gets each call's redacted arguments text by call id (the first of a repeated id).
    private func record(
        _ message: ChatMessage, plannedKeys: [String: (skillID: String?, key: String?)], arguments stored: inout [String: String]
    ) -> MessageRecord {
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
                    if stored[call.id] == nil { stored[call.id] = arguments }
                    var item: JSONObject = ["id": .string(call.id), "name": .string(call.name), "arguments": .string(arguments)]
                    if let planning = plannedKeys[call.id] {
                        if let skillID = planning.skillID { item["skill_id"] = .string(skillID) }
                        if let key = planning.key { item["idempotency_key"] = .string(key) }
                    }
                    return .object(item)
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
