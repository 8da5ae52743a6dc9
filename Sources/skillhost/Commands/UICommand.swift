import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillWeb

/// `skillhost ui [--port N] [--open]`: the local web app — chat, sessions, skills, trace — in a browser.
enum UICommand: Command {
    static let name = "ui"
    static let summary = "chat, sessions, skills and traces in a local web page"
    static let help = """
        usage: skillhost ui [--port N] [--open] [--base-url URL] [--model NAME] [--provider openai|anthropic|offline]
                            [--offline] [--max-steps N] [--context-tokens N] [--state DIR]

        Serves a web page on 127.0.0.1 only and prints its URL with a one-time token (the last line on
        stdout). The page: the chat with each skill call as a card (pending, running with a timer, done
        with a summary, failed with the error and Retry; write skills ask with Allow/Deny), Stop, the stored
        sessions (open, continue, delete: the same history as 'skillhost history'), the Skills tab (plugins,
        instruction skills, MCP servers and their tools, workflows: enable or disable, details, recent calls)
        and the open session's trace. The chat offers the skills 'skillhost chat' does. See docs/ui.md.

        The token works once: the browser that opens the URL gets a cookie (HttpOnly, SameSite=Strict) and
        every later request must carry it; requests naming another Host or coming from another Origin are
        refused. Nothing on the page is fetched from anywhere else.

        Options:
          --port N        the port (default 0: a free one)
          --open          open the URL in the desktop's browser (xdg-open)
          --base-url, --model, --provider, --offline, --max-steps, --context-tokens
                          the model and the agent, as for 'skillhost chat'
          --state DIR     folder of the history database (env SKILLHOST_STATE)

        Ctrl-C (or SIGTERM) stops the server: a running turn is stopped first.

        Exit codes: \(ExitCode.success) stopped, \(ExitCode.failure) the port cannot be bound, \(ExitCode.usage) usage.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments, flags: Set(["--open"]).union(ChatOptions.flags),
            options: Set(["--port"]).union(ChatOptions.options).union(HistoryOptions.options))
        guard parsed.positionals.isEmpty else {
            throw UsageError("'ui' takes no arguments, not '\(parsed.positionals[0])'")
        }
        var port: UInt16 = 0
        if let text = parsed.options["--port"] {
            guard let value = UInt16(text) else { throw UsageError("--port needs a number from 0 to 65535, not '\(text)'") }
            port = value
        }
        let environment = ProcessInfo.processInfo.environment
        let options = try ChatOptions(parsed, environment: environment)
        let warn: @Sendable (String) -> Void = { ErrorReporter.printError("ui: " + $0) }
        let host = HostOptions.host(parsed)
        let skills = HostSkillBackend(host: host)
        let provider = options.selection.makeProvider(environment: environment, disabledSkills: { skills.disabledSkills() })
        let store = try HistoryOptions.open(parsed, registry: try? host.registryStore.read())
        var setup = WebChatSetup(
            host: host, store: store, stateDirectory: HistoryOptions.directory(parsed), provider: provider, skills: skills,
            configuration: options.configuration, environment: environment, warn: warn)
        // The tool set `chat` offers: MCP servers' tools and workflows over the plugins (and, in the agent,
        // instruction skills and their scripts).
        let sources = ToolSources(parsed, host: host, base: skills)
        setup.tools = sources.backend
        setup.mcpSources = sources.mcp
        setup.workflows = sources.backend.installed
        // MCP servers' skills (the Skills extension) beside the local ones, as `chat` offers them.
        setup.library = await MCPSkillText.chatLibrary(sources.mcp, warn: warn)
        // After the Settings tab saved the registry's `chat` object: the flags and environment still come first.
        setup.reload = {
            let fresh = try ChatOptions(parsed, environment: environment)
            return (fresh.selection.makeProvider(environment: environment, disabledSkills: { skills.disabledSkills() }), fresh.configuration)
        }
        let server: WebServer
        do {
            server = try WebServer(chat: WebChat(setup: setup, events: WebEvents()), port: port, log: warn)
        } catch {
            ErrorReporter.printError("ui: \(error)")
            return ExitCode.failure
        }
        server.start()
        let url = server.url ?? "http://127.0.0.1:\(server.port)/"
        ErrorReporter.printError("ui: serving http://127.0.0.1:\(server.port)/ (model: \(provider.name)); open the URL below (its token works once); Ctrl-C stops")
        Posix.writeAll(1, Array((url + "\n").utf8))
        if parsed.has("--open") { openBrowser(url) }
        await HTTPService.waitForStopSignal()
        ErrorReporter.printError("ui: stopping")
        await server.stop()
        sources.shutdown()
        await host.shutdown()
        try? store.flushFinishes()
        return ExitCode.success
    }

    /// Starts the desktop's browser on `url` (xdg-open), or says how to open it.
    private static func openBrowser(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            ErrorReporter.printError("ui: cannot start a browser (xdg-open: \(error.localizedDescription)); open the URL yourself")
        }
    }
}
