import SkillCalls
import SkillHostCore
import SkillJSON

/// The agent: runs turns that take one user sentence, let the model call skills, feed the results back and
/// end with the model's answer. Each turn is an async stream of ``AgentEvent`` values; the CLI and tests
/// consume the same stream.
///
/// Thread-safety: `Agent` is `Sendable`, but turns of one agent share its history, so run one turn at a
/// time (consume a turn's stream to its end before sending the next sentence).
public final class Agent: Sendable {
    /// The model.
    public let provider: any ModelProvider
    /// The skills.
    public let backend: any SkillBackend
    /// The conversation so far.
    public let history: any ConversationHistory
    /// Limits, prompts and approval.
    public let configuration: AgentConfiguration
    /// Where the model's tool calls go: the tool-call layer every front end shares.
    public let caller: ToolCaller

    /// An agent over a model and skills.
    public init(
        provider: any ModelProvider, backend: any SkillBackend, history: any ConversationHistory = InMemoryHistory(),
        configuration: AgentConfiguration = AgentConfiguration()
    ) {
        self.provider = provider
        self.backend = backend
        self.history = history
        self.configuration = configuration
        caller = ToolCaller(
            backend: backend, approval: configuration.approval, recorder: configuration.recorder,
            sessionID: configuration.sessionID, sessionContext: configuration.sessionContext,
            preApproval: backend as? any PreApproval)
    }

    /// Starts a turn for `text` and returns its events. Ending the iteration early (or cancelling the
    /// consuming task) cancels the turn, including running skills.
    public func send(_ text: String) -> AsyncStream<AgentEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AgentEvent.self, bufferingPolicy: .unbounded)
        let task = Task {
            await self.runTurn(text) { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Runs a turn for `text`, reporting every event to `emit` (from several tasks: `emit` must be
    /// thread-safe). Returns when the turn is finished or failed.
    public func runTurn(_ text: String, emit: @escaping @Sendable (AgentEvent) -> Void) async {
        var turn = TurnDriver(agent: self, emit: emit)
        await turn.run(text)
    }
}

/// The state of one running turn.
private struct TurnDriver {
    let agent: Agent
    let emit: @Sendable (AgentEvent) -> Void
    var machine = AgentStateMachine()

    init(agent: Agent, emit: @escaping @Sendable (AgentEvent) -> Void) {
        self.agent = agent
        self.emit = emit
    }

    mutating func move(_ state: AgentState) {
        if machine.move(to: state) { emit(.stateChanged(state)) }
    }

    /// Ends the turn without an answer. The history gets a note that says so (``AgentConfiguration/cancelledNote``
    /// or ``AgentConfiguration/failedNotePrefix``), so a stored session shows how its last turn ended.
    mutating func fail(_ error: AgentError) async {
        let note =
            error.kind == .cancelled
            ? AgentConfiguration.cancelledNote : AgentConfiguration.failedNotePrefix + error.message + ")"
        await agent.history.append([.assistant(note)])
        emit(.turnFailed(error))
        move(.failed)
    }

    mutating func run(_ text: String) async {
        let configuration = agent.configuration
        await agent.history.append([.user(text)])
        let tools: [SkillTool]
        do {
            tools = try await agent.backend.listTools()
        } catch {
            move(.thinking)
            return await fail(AgentError(.skills, "could not list the enabled skills: \(error)"))
        }
        let names = ToolNameMap(skillIDs: tools.map(\.id))
        let specs = tools.compactMap { tool in names.toolName(for: tool.id).map { ToolSpec(name: $0, tool: tool) } }
        let runner = ToolCallRunner(caller: agent.caller, tools: tools, names: names, configuration: configuration)
        let systemPrompt = configuration.systemPrompt + ((await (agent.backend as? any InstructionPromptSource)?.instructionPrompt()) ?? "")
        let selector = ToolSelector(specs: specs, budget: configuration.toolBudget)
        var found: [String] = []
        var step = 0
        var usedIDs = Set<String>()
        while true {
            let atCap = step >= configuration.maxSteps
            var conversation = [ChatMessage.system(systemPrompt)] + (await agent.history.messages())
            conversation = HistoryTrimmer(budget: configuration.historyTokenBudget).trim(conversation)
            // A user-role note rather than a late system message: some local chat templates reject those.
            if atCap { conversation.append(.user(AgentConfiguration.stepCapPrompt)) }
            // The instruction-skill tools are always offered while any instruction skill is enabled: the system
            // prompt names those skills, and a model told about a skill must be able to activate it.
            let builtIn = specs.map(\.name).filter { $0 == InstructionTools.activate || $0 == InstructionTools.readFile }
            let offered = agent.provider.limitsTools ? selector.offer(for: text, pinned: builtIn + found) : specs
            let request = ModelRequest(
                messages: conversation, tools: offered, toolChoice: atCap || offered.isEmpty ? .none : .auto)
            move(.thinking)
            let reply: ModelReply
            do {
                reply = try await ask(request)
            } catch let error as ModelProviderError {
                if error.kind == .cancelled || Task.isCancelled {
                    return await fail(AgentError(.cancelled, "the turn was cancelled"))
                }
                return await fail(AgentError(.model, "\(agent.provider.name): \(error.message)", providerError: error))
            } catch {
                if Task.isCancelled { return await fail(AgentError(.cancelled, "the turn was cancelled")) }
                return await fail(AgentError(.model, "\(agent.provider.name): \(error)"))
            }
            var calls = reply.toolCalls
            for index in calls.indices {
                // Some local servers send no ids or repeat them; every call needs a unique one.
                if calls[index].id.isEmpty || usedIDs.contains(calls[index].id) {
                    var candidate = "call_\(step)_\(index)"
                    while usedIDs.contains(candidate) { candidate += "_" }
                    calls[index].id = candidate
                }
                usedIDs.insert(calls[index].id)
            }
            if calls.isEmpty {
                // An empty answer (content filter, length cap, a confused local model) still says something.
                let text = reply.content.isEmpty
                    ? "The model gave no answer (finish reason: \(reply.finishReason ?? "none")); try rephrasing the request."
                    : reply.content
                let answer = ChatMessage.assistant(text)
                await agent.history.append([answer])
                move(.generating)
                emit(.messageCompleted(answer))
                move(.finished)
                return
            }
            let message = ChatMessage.assistant(reply.content, toolCalls: calls)
            await agent.history.append([message])
            emit(.messageCompleted(message))
            move(.needSkill)
            move(.executingSkill)
            if atCap {
                // The model called tools although they were off: answer every call, then stop.
                let refusal = HostError(.denied, "not run: the limit of \(configuration.maxSteps) tool steps per request is reached")
                let refusals = calls.map { call in
                    let info = SkillCallInfo(
                        callID: call.id, toolName: call.name, skillID: names.skillID(for: call.name), argumentsText: call.argumentsText)
                    emit(.skillStarted(info))
                    emit(.skillFailed(info, error: refusal, seconds: 0))
                    return ChatMessage.tool(callID: call.id, content: runner.formatter.text(for: refusal))
                }
                await agent.history.append(refusals)
                move(.thinking)
                let answer = ChatMessage.assistant(
                    reply.content.isEmpty
                        ? "I stopped after \(configuration.maxSteps) tool steps without a final answer; ask again with a smaller request."
                        : reply.content)
                await agent.history.append([answer])
                move(.generating)
                emit(.messageCompleted(answer))
                move(.finished)
                return
            }
            let (results, more) = await FindSkillsTool.runAll(calls, runner: runner, selector: selector, offered: offered, emit: emit)
            found += more
            await agent.history.append(results)
            if Task.isCancelled { return await fail(AgentError(.cancelled, "the turn was cancelled")) }
            step += 1
        }
    }

    /// Streams one model reply, forwarding its tokens.
    mutating func ask(_ request: ModelRequest) async throws -> ModelReply {
        var reply: ModelReply?
        for try await event in agent.provider.respond(to: request) {
            switch event {
            case .token(let text):
                guard !text.isEmpty else { continue }
                move(.generating)
                emit(.token(text))
            case .reply(let complete):
                reply = complete
            case .notice(let line):
                emit(.notice(line))
            }
        }
        try Task.checkCancellation()
        guard let reply else {
            throw ModelProviderError(.invalidResponse, "the model's answer ended before it was complete; try again")
        }
        return reply
    }
}
