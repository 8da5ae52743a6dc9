import Foundation
import SkillCalls
import SkillHTTP
import SkillHostCore
import SkillMCP
import SkillStore

/// `skillhost mcp [--http HOST:PORT …]`: serves every enabled skill over MCP's stdio transport, or over
/// Streamable HTTP with bearer tokens.
enum MCPCommand: Command {
    static let name = "mcp"
    static let summary = "serve the enabled skills to MCP clients over stdio or HTTP"
    static let help = """
        usage: skillhost mcp [--allow-writes] [--tool-names portable|ids] [--verbose] [--page-size N] [--state DIR]
               skillhost mcp --http [HOST:]PORT [--tls-cert FILE --tls-key FILE] [--allow-origin ORIGINS]
                             [--resource URL] [--authorization-server URLS] [...the options above]

        Speaks the Model Context Protocol (JSON-RPC 2.0): on stdin/stdout, one message per line, until stdin
        closes; or, with --http, as Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1;
        give 0.0.0.0 to listen on every interface). Revision 2026-07-28 (stateless: every request carries
        its version in _meta; any replica answers it) and the initialize revisions 2024-11-05 to 2025-11-25
        are served on both. Logs go to stderr. Every enabled skill is a tool, named portably (clock_now;
        the skill id is in the title and _meta) unless --tool-names ids; tools/call takes either name.
        Register it in an MCP client as {"command": "skillhost", "args": ["mcp"]} (docs/mcp.md).

        Over HTTP every request needs a bearer token from 'skillhost token create NAME [--scope write]';
        a read token calls read skills only. Unauthenticated requests get 401 with the OAuth Protected
        Resource Metadata (RFC 9728) at /.well-known/oauth-protected-resource/mcp.

        Approval: a write skill runs when its registry entry says "approval": "allow" or with
        --allow-writes; a dangerous skill only with its own registry entry. A 2026-07-28 client that can
        answer forms is asked instead (input_required); any other refused call returns isError with the
        remedy.

        Every tools/call is recorded in the history, with the client's name (front end "mcp"; see
        'skillhost trace').

        Options:
          --allow-writes          allow every write skill (not dangerous ones)
          --tool-names MODE       portable (default: [A-Za-z0-9_-], what every model API accepts) or ids
          --verbose               one line per request on stderr: method, tool, status, time
          --page-size N           tools, resources and skills per list page (default 100)
          --http [HOST:]PORT      serve Streamable HTTP instead of stdio (port 0: any free port, printed)
          --tls-cert FILE         PEM certificate (chain) for HTTPS; with --tls-key
          --tls-key FILE          its PEM private key
          --allow-origin LIST     comma-separated browser origins allowed besides the server's own
          --resource URL          the public endpoint URL (https://host/mcp) named in the metadata; tokens
                                  made with --audience must name it
          --authorization-server LIST
                                  comma-separated OAuth authorization servers named in the metadata
          --max-connections N     connections at once (default 256)
          --max-requests-per-token N
                                  requests of one token in flight at once (default 64)
          --state DIR             folder of the history database (env SKILLHOST_STATE; default $XDG_STATE_HOME/skillhost)
          --keep-days N, --keep-sessions N
                                  retention applied on start (docs/history.md)
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments, flags: ["--allow-writes", "--verbose"],
            options: Set([
                "--page-size", "--tool-names", "--http", "--tls-cert", "--tls-key", "--allow-origin", "--resource",
                "--authorization-server", "--max-connections", "--max-requests-per-token",
            ]).union(HistoryOptions.options))
        guard parsed.positionals.isEmpty else { throw UsageError("mcp takes no positional arguments") }
        var pageSize = 100
        if let text = parsed.options["--page-size"] {
            guard let value = Int(text), value > 0 else { throw UsageError("--page-size needs a positive integer, not \(text)") }
            pageSize = value
        }
        var naming = MCPToolNaming.portable
        if let text = parsed.options["--tool-names"] {
            guard let value = MCPToolNaming(rawValue: text) else { throw UsageError("--tool-names must be portable or ids, not \(text)") }
            naming = value
        }
        let httpOnly = ["--tls-cert", "--tls-key", "--allow-origin", "--resource", "--authorization-server", "--max-connections", "--max-requests-per-token"]
        if parsed.options["--http"] == nil, let stray = httpOnly.first(where: { parsed.options[$0] != nil }) {
            throw UsageError("\(stray) needs --http HOST:PORT")
        }
        let host = HostOptions.host(parsed)
        let log: MCPServer.Sink = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        // A project's skills not loaded (not trusted), a skill shadowing another of its name: one line each.
        for note in (try? host.currentCatalog().notes) ?? [] { log("mcp: warning: " + note) }
        var configuration = MCPServerConfiguration(
            instructions: "Tools are SkillHost skills; each tool's title and _meta name its skill id.",
            approval: MCPApprovalPolicy(allowWrites: parsed.has("--allow-writes"), registryPath: host.paths.registry),
            pageSize: pageSize)
        configuration.toolNames = naming
        configuration.verbose = parsed.has("--verbose")
        do {
            configuration.requestStateKey = try MCPRequestStateKey.load(besideRegistry: host.paths.registry)
        } catch {
            log("mcp: approval questions are sealed with a key of this process only (replicas cannot check each other's): \(error)")
        }
        if let address = parsed.options["--http"] {
            return try await HTTPService.run(parsed, address: address, host: host, configuration: configuration, log: log)
        }
        let transport = MCPStdioTransport()
        var backend = HostSkillBackend(host: host)
        backend.queuesCalls = transport.replyPoller != nil
        // The registry's MCP servers: their tools beside native skills, their skills beside instruction skills.
        let sources = MCPSourceText.backend(parsed, host: host, base: backend)
        let hasServers = !((try? host.mcpServers()) ?? []).isEmpty
        let remoteSkills = hasServers ? MCPSkillCatalog(sources: sources) : nil
        let skills = HostInstructionSkillSource(host: host, remote: remoteSkills)
        // One connection is one session of the history; its calls' rows are written whole when they end.
        let sessionID = MCPServer.newSessionID()
        // Instruction skills' scripts run here too, sandboxed, in the connection's workspace.
        let (caller, recorder) = makeCaller(
            parsed, host: host, backend: backend, configuration: configuration, sessionID: sessionID, log: log, sources: sources, remoteSkills: remoteSkills)
        let server = MCPServer(
            configuration: configuration, caller: caller, skills: skills, send: transport.write, log: log,
            callExecutor: transport.callExecutor, replyPoller: transport.replyPoller)
        let watcher = MCPChangeWatcher(paths: [host.paths.registry, host.paths.plugins] + skills.watchedPaths) {
            server.refresh()
        }
        // A source server's new tools: listed again on the watcher's thread, and the client told.
        sources.toolsChanged.withLock { $0 = { watcher.poke() } }
        watcher.start()  // first, so a change while the first listing is built is seen
        // The servers' skills listed here, awaited: the listing then answers without blocking a thread.
        if let remoteSkills { _ = await remoteSkills.all() }
        server.refresh()
        await transport.run(server)
        watcher.stop()
        await host.shutdown()
        recorder?.flush()
        return ExitCode.success
    }

    /// The tool-call layer with the history's recorder (nil when the history cannot be opened).
    static func makeCaller(
        _ parsed: ParsedArguments, host: SkillHost, backend: HostSkillBackend, configuration: MCPServerConfiguration, sessionID: String,
        log: @escaping MCPServer.Sink, sources: MCPSourceBackend? = nil, remoteSkills: MCPSkillCatalog? = nil
    ) -> (ToolCaller, StoreCallRecorder?) {
        let context = SessionContext()
        var recorder: StoreCallRecorder?
        do {
            recorder = StoreCallRecorder(
                store: try HistoryOptions.open(parsed, registry: try? host.registryStore.read()), sessionID: sessionID,
                context: context, redactor: SecretRedactor.standard(environment: Posix.environment()),
                writesRowsAtFinish: true, report: { log("mcp: history: \($0.message)") })
        } catch {
            log("mcp: the history cannot be opened, so calls are not recorded: \(error)")
        }
        // `run_skill_script` (issue #30) runs in the session's workspace on stdio; over HTTP every client of a
        // replica shares one caller, so each bearer token gets a workspace of its own (MCPServer sets it).
        // The registry's MCP servers' tools are served beside native skills (a gateway: they run confined), and
        // installed workflows are tools too (workflow.NAME, docs/workflows.md).
        let sources = sources ?? MCPSourceText.backend(parsed, host: host, base: backend)
        let scripts = ScriptToolBackend(
            base: ToolSources(parsed, host: host, mcp: sources).backend, host: host, stateDirectory: HistoryOptions.directory(parsed))
        // The scripts of the MCP servers' skills too (fetched, verified, then run confined like local ones).
        let tools: any SkillBackend = remoteSkills.map {
            MCPSkillScriptBackend(base: scripts, catalog: $0, stateDirectory: HistoryOptions.directory(parsed))
        } ?? scripts
        let caller = ToolCaller(
            backend: tools, approval: configuration.approval, recorder: recorder, sessionID: sessionID,
            sessionContext: context, forwardsCallIDs: true)
        return (caller, recorder)
    }
}
