import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import Synchronization

/// `skillhost chat [PROMPT]`: talk to an agent that uses the enabled skills.
enum ChatCommand: Command {
    static let name = "chat"
    static let summary = "talk to an agent that calls the enabled skills"
    static let help = """
        usage: skillhost chat [PROMPT] [--json] [--yes] [--max-steps N] [--base-url URL] [--model NAME] [--offline]
                              [--context-tokens N] [--provider openai|anthropic|offline] [--attach FILE]
                              [--session ID | --continue] [--state DIR] [--keep-days N] [--keep-sessions N]

        One sentence in, skill calls and an answer out. With PROMPT: one turn, then exit. Without: an
        interactive session (type 'exit' or press Ctrl-D to leave). Each skill call shows as a card under
        the message: pending, running with its time, ✓ with a summary, or ✗ with the error.

        The model is an OpenAI-compatible server when one is configured (--base-url or OPENAI_BASE_URL,
        with --model or SKILLHOST_MODEL; OPENAI_API_KEY alone selects api.openai.com), else the built-in
        offline planner, which maps requests to the skills' example utterances. The API key is read only
        from OPENAI_API_KEY. See docs/agent.md for OpenAI, Ollama and llama.cpp.
        --provider anthropic (or SKILLHOST_PROVIDER=anthropic, or the registry's "chat": {"provider"}, or
        ANTHROPIC_API_KEY alone) uses the Anthropic Messages API (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY).
        Answers are streamed; a server that cannot stream with tools is asked again whole (said once), and
        SKILLHOST_STREAM=0 asks for whole answers from the start.

        Options:
          --json          print the turn's events as JSON lines (one object per line)
          --yes           approve write/dangerous skills without asking (else a y/N prompt in a terminal;
                          denied when not interactive)
          --max-steps N   model rounds that may call skills per turn (default 8); then it must answer
          --base-url URL  OpenAI-compatible API root, e.g. http://localhost:11434/v1 (env OPENAI_BASE_URL)
          --model NAME    model name (env SKILLHOST_MODEL)
          --offline       use the offline planner even when a server is configured
          --provider NAME openai, anthropic or offline (env SKILLHOST_PROVIDER)
          --context-tokens N  the model's context size in tokens (default 8192): tool definitions take at
                          most 25 % of it (at most 16 tools, the most relevant first, plus find_skills)
                          and the conversation at most half
          --attach FILE   copy FILE into the session's workspace (<state>/workspaces/<session>/), where
                          instruction skills' scripts (run_skill_script) run and write; the first message
                          says it is there
          --session ID    resume stored session ID with its messages and context (see 'skillhost history')
          --continue      resume the most recently active session
          --state DIR     folder of the history database (env SKILLHOST_STATE; default $XDG_STATE_HOME/skillhost)
          --keep-days N, --keep-sessions N
                          retention applied on start (default 90 days, 1000 sessions; 0 keeps all; see docs/history.md)

        Every message and skill call is stored as it happens (docs/history.md); a new session's id is printed
        on stderr when chat starts.

        A message that starts with /NAME (an enabled instruction skill) activates that skill directly: its
        instructions go to the model with the rest of the message.

        Ctrl-C stops the running turn (its skills are cancelled); at the prompt it leaves.

        Exit codes: \(ExitCode.success) answered, \(ExitCode.failure) the model failed (message on stderr), \(ExitCode.usage) usage,
        \(ExitCode.interrupted) interrupted.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments, flags: Set(["--json", "--yes"]).union(ChatSession.flags).union(ChatOptions.flags),
            options: Set(["--attach"]).union(ChatOptions.options).union(ChatSession.options).union(HistoryOptions.options))
        let environment = ProcessInfo.processInfo.environment
        let options = try ChatOptions(parsed, environment: environment)
        let selection = options.selection
        let renderer = ChatRenderer(mode: outputMode(json: parsed.has("--json"), environment: environment))
        // The standard gates, with the trust warning shown above the cards instead of through them.
        let paths = HostOptions.paths(parsed)
        let diagnostics = DiagnosticSink { _, line in renderer.warn(line) }
        let host = SkillHost(
            paths: paths, helperExecutable: HostOptions.helperExecutable, diagnostics: diagnostics,
            pluginOutput: HostOptions.pluginOutput(parsed))
        let approval = approvalHandler(assumeYes: parsed.has("--yes"), renderer: renderer)
        let skills = HostSkillBackend(host: host)
        let provider = selection.makeProvider(environment: environment, disabledSkills: { skills.disabledSkills() })
        // MCP servers' tools and workflows over the plugins; the history knows them all (ids, schemas to redact).
        let sources = ToolSources(parsed, host: host, base: skills)
        let session = try ChatSession.open(
            parsed, host: host, model: provider.name, environment: environment, tools: try? await sources.backend.listTools(), warn: renderer.warn)
        ErrorReporter.printError("chat: " + session.notice)
        // A project's skills not loaded (not trusted), a skill shadowing another of its name: one line each.
        for note in (try? host.currentCatalog().notes) ?? [] { renderer.warn("warning: " + note) }
        var attached: String?
        if let file = parsed.options["--attach"] {
            let name = try attach(file, session: session.id, state: HistoryOptions.directory(parsed))
            attached = "\n\n(Attached: \(name), in the workspace where skills' scripts run.)"
        }
        var configuration = options.configuration
        configuration.approval = approval
        // MCP servers' skills (the Skills extension) beside the local ones, when servers are registered.
        let library = await MCPSkillText.chatLibrary(sources.mcp, warn: { renderer.warn("warning: " + $0) })
        let agent = session.chat.agent(
            provider: provider, host: host, skills: sources.backend, stateDirectory: HistoryOptions.directory(parsed),
            configuration: configuration, library: library)
        let slashLibrary = library ?? HostInstructionLibrary(host: host)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(200))
                renderer.tick()
            }
        }
        defer { ticker.cancel() }

        let interrupts = InterruptHandler()
        if !parsed.positionals.isEmpty {
            guard let text = await slashExpanded(parsed.positionals.joined(separator: " ") + (attached ?? ""), library: slashLibrary) else {
                await host.shutdown()
                return ExitCode.usage
            }
            let failure = await interrupts.run { await turn(agent, text, renderer) }
            await host.shutdown()
            if failure?.kind == .cancelled {
                ErrorReporter.printError("chat: interrupted")
                return ExitCode.interrupted
            }
            if let failure { throw failure }
            return ExitCode.success
        }
        let interactive = isatty(0) == 1
        if interactive, case .terminal = renderer.mode {
            ChatRenderer.write("skillhost chat — model: \(agent.provider.name). Type 'exit' or press Ctrl-D to leave.\n")
        }
        while true {
            if interactive, case .terminal = renderer.mode { ChatRenderer.write("› ") }
            guard let line = readLine() else { break }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text == "exit" || text == "quit" { break }
            guard let message = await slashExpanded(text + (attached ?? ""), library: slashLibrary) else { continue }
            attached = nil
            if let failure = await interrupts.run({ await turn(agent, message, renderer) }) {
                ErrorReporter.printError("chat: \(failure.kind == .cancelled ? "interrupted" : failure.message)")
            }
        }
        await host.shutdown()
        return ExitCode.success
    }

    /// Runs one turn, rendering its events; returns its failure, if any. The turn runs in this task, so
    /// Ctrl-C (which cancels it) returns only once the turn has recorded how it ended.
    private static func turn(_ agent: Agent, _ text: String, _ renderer: ChatRenderer) async -> AgentError? {
        let failure = Mutex<AgentError?>(nil)
        await agent.runTurn(text) { event in
            renderer.render(event)
            if case .turnFailed(let error) = event { failure.withLock { $0 = error } }
        }
        renderer.finishTurn()
        let ended = failure.withLock { $0 }
        if ended == nil, Task.isCancelled { return AgentError(.cancelled, "the turn was cancelled") }
        return ended
    }

    private static func outputMode(json: Bool, environment: [String: String]) -> ChatRenderer.Mode {
        if json { return .json }
        guard isatty(1) == 1, environment["TERM"] != "dumb" else { return .plain }
        return .terminal(color: environment["NO_COLOR"] == nil)
    }

    /// `--yes`, the terminal prompt (with card redraws paused while it is up), or deny.
    private static func approvalHandler(assumeYes: Bool, renderer: ChatRenderer) -> any ApprovalHandler {
        TerminalApproval.handler(
            assumeYes: assumeYes,
            around: TerminalApproval(
                asking: { renderer.pause(awaitingApprovalOf: $0.skill.id) }, answered: { renderer.resume() }))
    }

    /// Copies `file` into the workspace of `session` (made when missing); its name there.
    static func attach(_ file: String, session: String, state: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw UsageError("--attach \(file): no such file; give a file to put in the session's workspace")
        }
        let workspace = try ScriptWorkspace.forSession(session, stateDirectory: state)
        let name = Posix.lastPathComponent(of: file)
        let target = workspace.folder + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        do {
            try FileManager.default.copyItem(atPath: file, toPath: target)
        } catch {
            throw HostError(.io, "--attach \(file): cannot copy it into \(workspace.folder): \(error.localizedDescription)")
        }
        ErrorReporter.printError("chat: attached \(name) to the workspace \(workspace.folder)")
        return name
    }

    /// `text` with a leading `/name` (or `/SERVER:PATH`, an MCP server's skill) expanded into that instruction
    /// skill's activation (said on stderr); nil, said on stderr, for a `/name` that names no enabled
    /// instruction skill or one that cannot be loaded.
    static func slashExpanded(_ text: String, library: any InstructionLibrary) async -> String? {
        switch await SlashActivation.read(text, library: library) {
        case .plain:
            return text
        case .activated(let skill, let message):
            ErrorReporter.printError("chat: activated \(skill)")
            return message
        case .unknown(let why):
            ErrorReporter.printError("chat: " + why)
            return nil
        }
    }
}
