import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows

/// What the page's chat runs on: the host, the history database, the model and the agent's settings —
/// the same parts `skillhost chat` builds from its flags.
public struct WebChatSetup: Sendable {
    /// The host whose enabled skills the agent calls.
    public var host: SkillHost
    /// The history database (`skillhost history` reads the same).
    public var store: HistoryStore
    /// The state folder (session workspaces for instruction skills' scripts).
    public var stateDirectory: String
    /// The model.
    public var provider: any ModelProvider
    /// The plugin backend the provider asks about switched-off skills.
    public var skills: HostSkillBackend
    /// What the agent calls under instruction skills and their scripts: the plugins with the registry's MCP
    /// servers' tools and the installed workflows on top, composed as `skillhost chat` composes it (the CLI's
    /// `ToolSources`). Nil: ``skills`` alone.
    public var tools: (any SkillBackend)?
    /// The MCP servers in ``tools``, for the Skills tab (nil: none shown).
    public var mcpSources: MCPSourceBackend?
    /// The installed workflows in ``tools``, for the Skills tab (nil: none shown).
    public var workflows: InstalledWorkflows?
    /// The instruction skills the agent offers: the local ones with the MCP servers' (`skillhost chat`'s
    /// library). Nil: the host's own.
    public var library: (any InstructionLibrary)?
    /// Limits and budgets (the approval handler and the session are set by the page's chat).
    public var configuration: AgentConfiguration
    /// Whose secrets are redacted from the history.
    public var environment: [String: String]
    /// Warnings (history write failures), one line each.
    public var warn: @Sendable (String) -> Void
    /// Reads the model and the agent's settings again (after the Settings tab saved them): what the command
    /// line, the environment and the registry's `chat` object say now. Nil: they never change.
    public var reload: (@Sendable () throws -> (provider: any ModelProvider, configuration: AgentConfiguration))?

    /// A setup with these parts.
    public init(
        host: SkillHost, store: HistoryStore, stateDirectory: String, provider: any ModelProvider, skills: HostSkillBackend,
        configuration: AgentConfiguration, environment: [String: String], warn: @escaping @Sendable (String) -> Void
    ) {
        self.host = host
        self.store = store
        self.stateDirectory = stateDirectory
        self.provider = provider
        self.skills = skills
        self.configuration = configuration
        self.environment = environment
        self.warn = warn
        reload = nil
        tools = nil
        mcpSources = nil
        workflows = nil
        library = nil
    }
}

/// A request the page made that cannot be done now: the HTTP status and one line saying why and what to do.
public struct WebRefusal: Error, Sendable, Equatable {
    /// The status.
    public var status: Int
    /// The line.
    public var message: String

    /// A refusal.
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// The page's conversation: one stored session at a time (a new one is made by the first message), one turn
/// at a time on the agent loop `skillhost chat` runs, its events published for the page, Stop, and Retry of
/// a failed call (a new call with the same arguments, recorded with the client `retry of CALL`).
public final class WebChat: @unchecked Sendable {
    /// The setup.
    public let setup: WebChatSetup
    /// Where events go.
    public let events: WebEvents
    /// The page's approvals.
    public let approval: WebApproval

    private let lock = NSLock()
    private var model: (provider: any ModelProvider, configuration: AgentConfiguration)
    private var chat: StoredChat?
    private var agent: Agent?
    private var running: Task<Void, Never>?
    private var calls: [String: SkillCallInfo] = [:]
    private var retries = 0

    /// A chat over `setup`, publishing to `events`.
    public init(setup: WebChatSetup, events: WebEvents) {
        self.setup = setup
        self.events = events
        approval = WebApproval(events: events)
        model = (setup.provider, setup.configuration)
    }

    /// The model's name (`openai:gpt-4o-mini`, `offline`).
    public var modelName: String { lock.withLock { model.provider.name } }

    /// The agent's limits now.
    public var configuration: AgentConfiguration { lock.withLock { model.configuration } }

    /// Reads the model and limits again (``WebChatSetup/reload``); the next turn uses them, in the same session.
    /// - Throws: what reading them threw (the settings stay as they were).
    public func reconfigure() throws {
        guard let reload = setup.reload else { return }
        let fresh = try reload()
        lock.withLock {
            model = fresh
            if running == nil { agent = nil }
        }
    }

    /// The open session's id (nil before the first message of a new chat).
    public var sessionID: String? { lock.withLock { chat?.id } }

    /// Whether a turn (or a retry) runs.
    public var isRunning: Bool { lock.withLock { running != nil } }

    /// Sends `text` as the next user message; the turn runs in the background.
    public func send(_ text: String) throws(WebRefusal) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw WebRefusal(400, "the message is empty; type something to send") }
        let library = setup.library ?? HostInstructionLibrary(host: setup.host)
        var activated: (name: String, rest: String)?
        switch SlashActivation.choice(trimmed, library: library) {
        case .plain: break
        case .skill(let name, let rest): activated = (name, rest)
        case .unknown(let why): throw WebRefusal(400, why)
        }
        // Listing the tools may start MCP servers: before the lock, so the page's other requests go on meanwhile.
        let tools = lock.withLock { chat == nil } ? offeredTools() : nil
        lock.lock()
        defer { lock.unlock() }
        guard running == nil else { throw WebRefusal(409, "a turn is running; wait for its answer or press Stop") }
        let agent = try openAgent(tools: tools)
        let session = agent.configuration.sessionID
        events.publish(["event": "turnStarted", "session": .string(session), "text": .string(trimmed)])
        running = Task { [self] in
            var message = trimmed
            if let activated {
                // An MCP server's skill is fetched and verified here, off the page's request.
                do throws(HostError) {
                    message = try await SlashActivation.message(activating: activated.name, rest: activated.rest, library: library)
                    events.publish(["event": "notice", "text": .string("activated instruction skill \(activated.name)")])
                } catch {
                    events.publish(["event": "notice", "text": .string("/\(activated.name) could not be activated, so the message was not sent: \(error.message)")])
                    finish(session: session)
                    return
                }
            }
            await agent.runTurn(message) { event in
                if case .skillStarted(let info) = event { self.lock.withLock { self.calls[info.callID] = info } }
                self.publish(event, session: session)
            }
            finish(session: session)
        }
    }

    /// Stops the running turn (its skills are cancelled, questions denied); false when none runs.
    @discardableResult
    public func stop() -> Bool {
        guard let task = lock.withLock({ running }) else { return false }
        task.cancel()
        approval.denyAll()
        return true
    }

    /// Runs failed call `callID` again with the same arguments, as a new call of the session.
    public func retry(_ callID: String) throws(WebRefusal) {
        let available = try? (setup.tools ?? setup.skills).tools()  // before the lock: it may start MCP servers
        lock.lock()
        defer { lock.unlock() }
        guard running == nil else { throw WebRefusal(409, "a turn is running; retry when it has ended") }
        guard let info = calls[callID], chat != nil else {
            throw WebRefusal(404, "no call \(callID) in this page's conversation; only calls made here can be retried")
        }
        let agent = try openAgent(tools: nil)
        guard let skillID = info.skillID, let tool = available?.first(where: { $0.id == skillID }) else {
            throw WebRefusal(409, "\(info.skillID ?? info.toolName) is not an enabled skill now; enable it in the Skills tab, then retry")
        }
        retries += 1
        var retried = SkillCallInfo(
            callID: "\(callID)-retry\(retries)", toolName: info.toolName, skillID: skillID, argumentsText: info.argumentsText,
            summaryTemplate: info.summaryTemplate)
        retried.replayed = false
        calls[retried.callID] = retried
        let session = agent.configuration.sessionID
        let request = ToolCallRequest(
            toolName: info.toolName, tool: tool, arguments: .text(info.argumentsText), callID: retried.callID,
            origin: CallOrigin(frontEnd: "ui", client: "retry of \(callID)"))
        running = Task { [self] in
            publish(.skillStarted(retried), session: session, retryOf: callID)
            let outcome = await agent.caller.call(request)
            switch outcome.result {
            case .success(let result):
                publish(.skillSucceeded(retried, result: result, seconds: outcome.seconds), session: session, retryOf: callID)
            case .failure(let error):
                publish(.skillFailed(retried, error: error, seconds: outcome.seconds), session: session, retryOf: callID)
            }
            finish(session: session)
        }
    }

    /// Opens stored session `id` to continue it (nil: a new chat, made by its first message).
    public func open(_ id: String?) throws(WebRefusal) {
        let tools = id == nil ? nil : offeredTools()  // before the lock: it may start MCP servers
        lock.lock()
        defer { lock.unlock() }
        guard running == nil else { throw WebRefusal(409, "a turn is running; stop it before switching sessions") }
        calls = [:]
        guard let id else {
            chat = nil
            agent = nil
            return
        }
        guard (try? setup.store.session(id: id)) != nil else {
            throw WebRefusal(404, "no stored session \(id); pick one from the list")
        }
        do {
            let opened = try StoredChat.open(
                id, store: setup.store, host: setup.host, model: model.provider.name, environment: setup.environment,
                tools: tools, warn: setup.warn)
            chat = opened
            agent = makeAgent(opened)
        } catch let error as HostError {
            throw WebRefusal(error.kind == .notFound ? 404 : 500, error.message)
        } catch let error as StoreError {
            throw WebRefusal(500, error.message)
        } catch {
            throw WebRefusal(500, "\(error)")
        }
    }

    /// Forgets the open session when it is `id` (it was deleted).
    public func forget(_ id: String) {
        lock.withLock {
            if chat?.id == id, running == nil {
                chat = nil
                agent = nil
                calls = [:]
            }
        }
    }

    /// Waits for the running turn to end (the server stops).
    public func drain() async {
        stop()
        await lock.withLock({ running })?.value
    }

    /// The agent of the open session, making a session first when none is open, whose history knows `tools`
    /// (nil: listed now). Called with the lock held.
    private func openAgent(tools: [SkillTool]?) throws(WebRefusal) -> Agent {
        if let agent { return agent }
        if let chat {
            let made = makeAgent(chat)
            agent = made
            return made
        }
        do {
            let opened = try StoredChat.open(
                nil, store: setup.store, host: setup.host, model: model.provider.name, environment: setup.environment,
                tools: tools ?? offeredTools(), warn: setup.warn)
            chat = opened
            let made = makeAgent(opened)
            agent = made
            events.publish(["event": "session", "id": .string(opened.id)])
            return made
        } catch {
            throw WebRefusal(500, "cannot start a session in the history database \(setup.store.path): \(error)")
        }
    }

    /// The tools the history knows: those of the backend the agent calls (MCP servers' tools and workflows
    /// included), so their calls are recorded under their skill ids and their secrets redacted.
    private func offeredTools() -> [SkillTool]? {
        setup.tools.flatMap { try? $0.tools() }
    }

    private func makeAgent(_ chat: StoredChat) -> Agent {
        var configuration = model.configuration
        configuration.approval = approval
        return chat.agent(
            provider: model.provider, host: setup.host, skills: setup.tools ?? setup.skills, stateDirectory: setup.stateDirectory,
            configuration: configuration, library: setup.library)
    }

    private func publish(_ event: AgentEvent, session: String, retryOf: String? = nil) {
        guard case .object(var object) = event.jsonValue else { return }
        object["session"] = .string(session)
        if let retryOf { object["retry_of"] = .string(retryOf) }
        events.publish(.object(object))
    }

    private func finish(session: String) {
        lock.withLock { running = nil }
        events.publish(["event": "turnEnded", "session": .string(session)])
    }
}
