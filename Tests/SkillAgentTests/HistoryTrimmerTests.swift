import Testing

@testable import SkillAgent

@Suite struct HistoryTrimmerTests {
    /// A turn: user, assistant with one call, its tool result, final answer.
    static func turn(_ number: Int, padding: Int = 400) -> [ChatMessage] {
        let filler = String(repeating: "x", count: padding)
        return [
            .user("request \(number) \(filler)"),
            .assistant("", toolCalls: [ToolCall(id: "call_\(number)", name: "clock_now", argumentsText: "{}")]),
            .tool(callID: "call_\(number)", content: "{\"time\": \"\(filler)\"}"),
            .assistant("answer \(number)"),
        ]
    }

    /// Every tool message in `messages` directly follows (within its unit) the assistant message that made its call.
    static func callsAndResultsTogether(_ messages: [ChatMessage]) -> Bool {
        var open = Set<String>()
        for message in messages {
            switch message.role {
            case .assistant:
                if !open.isEmpty { return false }
                open = Set(message.toolCalls.map(\.id))
            case .tool:
                guard let id = message.toolCallID, open.remove(id) != nil else { return false }
            default:
                if !open.isEmpty { return false }
            }
        }
        return open.isEmpty
    }

    @Test func keepsEverythingUnderBudget() {
        let messages = [ChatMessage.system("sys")] + Self.turn(1, padding: 10)
        #expect(HistoryTrimmer(budget: 10_000).trim(messages) == messages)
    }

    @Test func dropsOldestTurnsFirstAndSummarizes() {
        let messages = [ChatMessage.system("sys")] + (1...6).flatMap { Self.turn($0) }
        let trimmed = HistoryTrimmer(budget: 700).trim(messages)
        #expect(TokenEstimator.tokens(in: trimmed) <= 700)
        #expect(trimmed.first == .system("sys"))
        #expect(trimmed[1].role == .system)
        #expect(trimmed[1].content.contains("Earlier conversation trimmed"))
        #expect(trimmed[1].content.contains("request 1"))
        #expect(trimmed[1].content.contains("clock_now"))
        // The newest turn is whole; the oldest is gone.
        #expect(trimmed.suffix(4) == Self.turn(6)[...])
        #expect(!trimmed.contains(.user(Self.turn(1)[0].content)))
        #expect(Self.callsAndResultsTogether(Array(trimmed.dropFirst(2))))
    }

    @Test func neverSeparatesACallFromItsResultAtAnyBudget() {
        // A current turn with several tool rounds, after two older turns.
        var current: [ChatMessage] = [.user("do many things")]
        for round in 0..<5 {
            let calls = (0..<2).map { ToolCall(id: "r\(round)c\($0)", name: "text_count_words", argumentsText: "{\"text\":\"\(round)\"}") }
            current.append(.assistant("", toolCalls: calls))
            for call in calls { current.append(.tool(callID: call.id, content: String(repeating: "y", count: 300))) }
        }
        let messages = [ChatMessage.system("sys")] + Self.turn(1) + Self.turn(2) + current
        for budget in stride(from: 200, through: 3000, by: 50) {
            let trimmed = HistoryTrimmer(budget: budget).trim(messages)
            #expect(Self.callsAndResultsTogether(Array(trimmed.drop { $0.role == .system })), "budget \(budget)")
            #expect(trimmed.contains(.user("do many things")), "budget \(budget)")
            #expect(trimmed.last == current.last, "budget \(budget)")
        }
    }

    @Test func dropsOlderRoundsOfAnOversizedCurrentTurn() {
        var current: [ChatMessage] = [.user("big request")]
        for round in 0..<4 {
            let call = ToolCall(id: "c\(round)", name: "files_read", argumentsText: "{}")
            current.append(.assistant("", toolCalls: [call]))
            current.append(.tool(callID: call.id, content: String(repeating: "z", count: 1200)))
        }
        let trimmed = HistoryTrimmer(budget: 800).trim([.system("sys")] + current)
        #expect(trimmed.contains(.user("big request")))
        #expect(trimmed.last?.toolCallID == "c3")
        #expect(!trimmed.contains { $0.toolCallID == "c0" })
        #expect(trimmed.contains { $0.role == .system && $0.content.contains("files_read") })
    }

    /// An instruction skill's activation stays whatever the budget: its instructions hold for the session.
    @Test func neverDropsAnActivation() {
        let filler = String(repeating: "y", count: 2000)
        let activation: [ChatMessage] = [
            .user("plan a meeting \(filler)"),
            .assistant("", toolCalls: [ToolCall(id: "call_a", name: "activate_skill", argumentsText: #"{"name":"time-zones"}"#)]),
            .tool(callID: "call_a", content: #"{"name":"time-zones","instructions":"Use UTC offsets."}"#),
            .assistant("ok"),
        ]
        let messages = [ChatMessage.system("You help.")] + activation + Self.turn(2) + Self.turn(3)
        let trimmed = HistoryTrimmer(budget: 300).trim(messages)
        #expect(trimmed.contains { $0.toolCalls.first?.name == "activate_skill" }, "\(trimmed)")
        #expect(trimmed.contains { $0.role == .tool && $0.content.contains("Use UTC offsets.") })
        #expect(!trimmed.contains { $0.content.hasPrefix("plan a meeting") }, "the rest of its turn goes")
        #expect(Self.callsAndResultsTogether(trimmed))
    }
}
