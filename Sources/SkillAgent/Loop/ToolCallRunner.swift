import SkillCalls
import SkillHostCore
import SkillJSON

/// Runs the tool calls of one model reply through the tool-call layer (``ToolCaller``: one path for every
/// front end, which parses, checks, asks, runs with the skill's deadline, checks the result and records),
/// up to `maxConcurrentCalls` at once, and returns one tool message per call in call order. What is the
/// agent's own: mapping the model's tool names to tools, the events, and the tool message the model reads
/// (the result trimmed to the budget, or the failure with its next step). Nothing here throws.
struct ToolCallRunner: Sendable {
    let caller: ToolCaller
    let names: ToolNameMap
    let toolsByID: [String: SkillTool]
    let configuration: AgentConfiguration
    let formatter: ToolResultFormatter

    init(caller: ToolCaller, tools: [SkillTool], names: ToolNameMap, configuration: AgentConfiguration) {
        self.caller = caller
        self.names = names
        self.toolsByID = Dictionary(tools.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        self.formatter = ToolResultFormatter(trimmer: ResultTrimmer(limit: configuration.maxResultCharacters))
    }

    /// Runs `calls` (bounded concurrency) and returns their tool messages in the same order.
    func runAll(_ calls: [ToolCall], emit: @escaping @Sendable (AgentEvent) -> Void) async -> [ChatMessage] {
        var messages = [ChatMessage?](repeating: nil, count: calls.count)
        await withTaskGroup(of: (Int, ChatMessage).self) { group in
            var next = 0
            func startNext() {
                let index = next
                let call = calls[index]
                next += 1
                group.addTask { (index, await run(call, emit: emit)) }
            }
            while next < calls.count, next < configuration.maxConcurrentCalls { startNext() }
            for await (index, message) in group {
                messages[index] = message
                if next < calls.count { startNext() }
            }
        }
        return messages.enumerated().map { index, message in
            message ?? .tool(callID: calls[index].id, content: formatter.text(for: HostError(.cancelled, "not run")))
        }
    }

    /// Runs one call and returns its tool message.
    func run(_ call: ToolCall, emit: @escaping @Sendable (AgentEvent) -> Void) async -> ChatMessage {
        let skillID = names.skillID(for: call.name)
        let tool = skillID.flatMap { toolsByID[$0] }
        // An instruction skill's activation is shown and recorded under that skill's id.
        let shownID = InstructionTools.activatedSkill(in: call, skillID: skillID) ?? skillID
        var info = SkillCallInfo(
            callID: call.id, toolName: call.name, skillID: shownID, argumentsText: call.argumentsText, summaryTemplate: tool?.summary)
        let offered = names.toolNames.sorted().joined(separator: ", ")
        let request = ToolCallRequest(
            toolName: call.name, tool: tool, arguments: .text(call.argumentsText), callID: call.id, origin: .chat,
            recordedSkillID: shownID == skillID ? nil : shownID, unknownTool: names.unknownTool(call.name, use: "no enabled skill has that name; use one of: \(offered.isEmpty ? "(none)" : offered)"))
        let started = info
        let outcome = await caller.call(request) { replayed in
            var shown = started
            shown.replayed = replayed
            emit(.skillStarted(shown))
        }
        info.replayed = outcome.replayed
        switch outcome.result {
        case .success(let result):
            emit(.skillSucceeded(info, result: result, seconds: outcome.seconds))
            // Instructions reach the model whole (their own tools cap them); only the history trimmer drops them.
            let content = InstructionTools.keepsWholeResult(skillID) ? result.serialized() : formatter.text(for: result)
            return .tool(callID: call.id, content: content)
        case .failure(let error):
            emit(.skillFailed(info, error: error, seconds: outcome.seconds))
            return .tool(callID: call.id, content: formatter.text(for: error))
        }
    }
}
