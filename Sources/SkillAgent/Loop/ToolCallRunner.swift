import SkillHostCore
import SkillJSON

/// Runs the tool calls of one model reply: maps names to skills, parses and checks the arguments, runs up
/// to `maxConcurrentCalls` at once with each skill's timeout, and returns one tool message per call in call
/// order. Arguments are checked against the tool's schema before dispatch. Every failure becomes a tool
/// message the model can act on; nothing here throws.
struct ToolCallRunner: Sendable {
    let backend: any SkillBackend
    let names: ToolNameMap
    let toolsByID: [String: AgentTool]
    let configuration: AgentConfiguration
    let formatter: ToolResultFormatter
    let checker: ArgumentChecker

    init(backend: any SkillBackend, tools: [AgentTool], names: ToolNameMap, configuration: AgentConfiguration) {
        self.checker = ArgumentChecker(tools: tools)
        self.backend = backend
        self.names = names
        self.toolsByID = Dictionary(tools.map { ($0.skillID, $0) }, uniquingKeysWith: { first, _ in first })
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
        // An instruction skill's activation is shown and recorded under that skill's id.
        let shownID = InstructionTools.activatedSkill(in: call, skillID: skillID) ?? skillID
        var info = SkillCallInfo(
            callID: call.id, toolName: call.name, skillID: shownID, argumentsText: call.argumentsText,
            summaryTemplate: skillID.flatMap { toolsByID[$0]?.summary })
        var recording = CallRecording(configuration: configuration, call: call, skillID: shownID, tool: skillID.flatMap { toolsByID[$0] })
        info.replayed = recording.replayedResult != nil
        emit(.skillStarted(info))
        recording.start()
        let clock = ContinuousClock()
        let start = clock.now
        var outcome: Result<JSONValue, HostError>
        if let replayed = recording.replayedResult {
            outcome = .success(replayed)
        } else if let refusal = await recording.refusedRetry() {
            outcome = .failure(refusal)
        } else {
            let key = recording.idempotencyKey
            outcome = await recording.attributing { await self.outcome(of: call, skillID: skillID, idempotencyKey: key) }
        }
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        recording.finish(outcome, seconds: seconds)
        switch outcome {
        case .success(let result):
            emit(.skillSucceeded(info, result: result, seconds: seconds))
            // Instructions reach the model whole (their own tools cap them); only the history trimmer drops them.
            let content = InstructionTools.keepsWholeResult(skillID) ? result.serialized() : formatter.text(for: result)
            return .tool(callID: call.id, content: content)
        case .failure(let error):
            emit(.skillFailed(info, error: error, seconds: seconds))
            return .tool(callID: call.id, content: formatter.text(for: error))
        }
    }

    private func outcome(of call: ToolCall, skillID: String?, idempotencyKey: String?) async -> Result<JSONValue, HostError> {
        guard let skillID, let tool = toolsByID[skillID] else {
            let offered = names.toolNames.sorted().joined(separator: ", ")
            return .failure(
                HostError(
                    .notFound,
                    "unknown tool '\(call.name)': no enabled skill has that name; use one of: \(offered.isEmpty ? "(none)" : offered)"
                ))
        }
        let arguments: JSONValue
        do {
            arguments = try call.parsedArguments()
        } catch {
            return .failure(
                HostError(
                    .invalidArguments,
                    "arguments of \(skillID) are not valid JSON (\(error)); send one JSON object that matches the parameter schema",
                    skillID: skillID))
        }
        guard case .object = arguments else {
            return .failure(
                HostError(
                    .invalidArguments,
                    "arguments of \(skillID) must be a JSON object, not \(arguments.typeName); wrap them as {\"name\": value}",
                    skillID: skillID))
        }
        if let error = checker.check(arguments, for: skillID) { return .failure(error) }
        let invocation = SkillInvocation(
            skillID: skillID, arguments: arguments, callID: call.id, sessionID: configuration.sessionID,
            approval: configuration.approval, idempotencyKey: idempotencyKey)
        let backend = self.backend
        let limit = tool.timeout + configuration.timeoutGrace
        // The skill's timeout covers its execution only: a backend that reports when execution starts (after
        // approval, which may wait on a person) starts the clock then.
        return await DeadlineRace.run(
            seconds: limit,
            startsTimer: !backend.reportsExecutionStart,
            operation: { startTimer in
                var timed = invocation
                timed.executionStarted = startTimer
                return await backend.run(timed)
            },
            onTimeout: {
                .failure(
                    HostError(
                        .timeout,
                        "\(skillID) did not finish within \(Self.format(tool.timeout)) s; raise its timeout in the registry or ask for less",
                        skillID: skillID))
            },
            onCancel: { .failure(HostError(.cancelled, "\(skillID) was cancelled with the turn", skillID: skillID)) }
        )
    }

    static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}

extension ToolNameMap {
    /// Every tool name in the map.
    var toolNames: [String] { skillIDs.compactMap { toolName(for: $0) } }
}
