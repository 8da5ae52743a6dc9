/// Fits a conversation into an estimated token budget before it goes to the model.
///
/// Leading system messages always stay. The rest is cut into turns (a user message and everything up to
/// the next one) and units (a single message, or an assistant message with tool calls together with the
/// tool messages that answer them). Whole turns are dropped oldest first; if the current turn alone is
/// still too large, its older tool units are dropped, never its user message or its latest unit. A call is
/// never separated from its result. Dropped messages are replaced by one short system message that says
/// what they contained. An instruction skill's activation (a call of `activate_skill` with its result) is
/// never dropped: the skill's instructions stay in force for the whole session (the Agent Skills client guide).
public struct HistoryTrimmer: Sendable {
    /// The estimated token budget.
    public var budget: Int

    /// A trimmer for this budget.
    public init(budget: Int) { self.budget = budget }

    /// The messages to send: `messages` itself when it fits, else a trimmed copy with a summary.
    public func trim(_ messages: [ChatMessage]) -> [ChatMessage] {
        guard TokenEstimator.tokens(in: messages) > budget else { return messages }
        let head = Array(messages.prefix { $0.role == .system })
        var turns = Self.turns(in: Array(messages.dropFirst(head.count)))
        var dropped: [[ChatMessage]] = []

        var kept: [[ChatMessage]] = []
        func assembled() -> [ChatMessage] {
            let summary = dropped.isEmpty ? [] : [Self.summary(of: dropped)]
            return head + summary + kept.flatMap { $0 } + turns.flatMap { $0.flatMap { $0 } }
        }

        while turns.count > 1, TokenEstimator.tokens(in: assembled()) > budget {
            let turn = turns.removeFirst()
            kept += turn.filter(Self.isActivation)
            dropped.append(turn.filter { !Self.isActivation($0) }.flatMap { $0 })
        }
        // The current turn alone is too large: drop its older tool units (keep the user message, which is
        // the first unit when the turn starts with one, and the latest unit).
        if var current = turns.first {
            let firstDroppable = current.first?.first?.role == .user ? 1 : 0
            var index = firstDroppable
            while index < current.count - 1, TokenEstimator.tokens(in: assembled()) > budget {
                if Self.isActivation(current[index]) {
                    index += 1
                    continue
                }
                dropped.append(current.remove(at: index))
                turns[0] = current
            }
        }
        return assembled()
    }

    /// Whether `unit` is an instruction skill's activation: an assistant message whose calls are all
    /// `activate_skill`, with their results.
    static func isActivation(_ unit: [ChatMessage]) -> Bool {
        guard let first = unit.first, first.role == .assistant, !first.toolCalls.isEmpty else { return false }
        return first.toolCalls.allSatisfy { $0.name == InstructionTools.activate }
    }

    /// Splits messages into turns of units.
    static func turns(in messages: [ChatMessage]) -> [[[ChatMessage]]] {
        var turns: [[[ChatMessage]]] = []
        var index = 0
        while index < messages.count {
            let message = messages[index]
            if message.role == .user || turns.isEmpty { turns.append([]) }
            var unit = [message]
            index += 1
            if message.role == .assistant, !message.toolCalls.isEmpty {
                // Its answers, plus any stray tool messages right after them.
                while index < messages.count, messages[index].role == .tool {
                    unit.append(messages[index])
                    index += 1
                }
            } else if message.role == .tool, var last = turns[turns.count - 1].popLast() {
                // A tool message without its call in this unit: keep it with the unit before it.
                last.append(message)
                unit = last
            }
            turns[turns.count - 1].append(unit)
        }
        return turns
    }

    /// One system message that says what the dropped messages held.
    static func summary(of dropped: [[ChatMessage]]) -> ChatMessage {
        let messages = dropped.flatMap { $0 }
        let requests = messages.filter { $0.role == .user }.map { "\"" + clip($0.content, 80) + "\"" }
        var toolCounts: [String: Int] = [:]
        var order: [String] = []
        for call in messages.flatMap(\.toolCalls) {
            if toolCounts[call.name] == nil { order.append(call.name) }
            toolCounts[call.name, default: 0] += 1
        }
        var text = "Earlier conversation trimmed to fit the context (\(messages.count) messages dropped)."
        if !requests.isEmpty { text += " The user had asked: " + requests.suffix(5).joined(separator: "; ") + "." }
        if !order.isEmpty {
            text += " Tools used: " + order.map { toolCounts[$0]! > 1 ? "\($0) ×\(toolCounts[$0]!)" : $0 }
                .joined(separator: ", ") + "."
        }
        return .system(text)
    }

    static func clip(_ text: String, _ length: Int) -> String {
        let single = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return single.count > length ? String(single.prefix(length)) + "…" : single
    }
}
