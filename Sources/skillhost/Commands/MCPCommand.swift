import Foundation
import SkillCalls
import SkillHostCore
import SkillMCP
import SkillStore

/// `skillhost mcp [--allow-writes] [--page-size N]`: serves every enabled skill over MCP's stdio transport.
enum MCPCommand: Command {
    static let name = "mcp"
    static let summary = "serve the enabled skills to MCP clients over stdio"
    static let help = """
        usage: skillhost mcp [--allow-writes] [--page-size N] [--state DIR]

        Speaks the Model Context Protocol (JSON-RPC 2.0, one message per line) on stdin/stdout until stdin
        closes; logs go to stderr. Every enabled skill is a tool; changes to the registry or the plugins
        folder reach the client as notifications/tools/list_changed within a second. Register it in an MCP
        client as {"command": "skillhost", "args": ["mcp"]} (docs/mcp.md).

        Approval: MCP clients cannot be asked. A write skill runs only when its registry entry says
        "approval": "allow" or with --allow-writes; a dangerous skill only with its own registry entry.
        A refused call returns isError with the remedy.

        Every tools/call is recorded in the history, with the client's name (front end "mcp"; one session
        per connection; see 'skillhost trace').

        Options:
          --allow-writes   allow every write skill (not dangerous ones)
          --page-size N    tools, resources and skills per list page (default 100)
          --state DIR      folder of the history database (env SKILLHOST_STATE; default $XDG_STATE_HOME/skillhost)
          --keep-days N, --keep-sessions N
                           retention applied on start (docs/history.md)
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--allow-writes"], options: Set(["--page-size"]).union(HistoryOptions.options))
        guard parsed.positionals.isEmpty else { throw UsageError("mcp takes no positional arguments") }
        var pageSize = 100
        if let text = parsed.options["--page-size"] {
            guard let value = Int(text), value > 0 else { throw UsageError("--page-size needs a positive integer, not \(text)") }
            pageSize = value
        }
        let host = HostOptions.host(parsed)
        let transport = MCPStdioTransport()
        let configuration = MCPServerConfiguration(
            instructions: "Tools are SkillHost skills; tool names are skill ids.",
            approval: MCPApprovalPolicy(allowWrites: parsed.has("--allow-writes"), registryPath: host.paths.registry),
            pageSize: pageSize)
        let log: MCPServer.Sink = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        let skills = HostInstructionSkillSource(host: host)
        var backend = HostSkillBackend(host: host)
        backend.queuesCalls = transport.replyPoller != nil
        // One connection is one session of the history; its calls' rows are written whole when they end.
        let sessionID = MCPServer.newSessionID()
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
        // Instruction skills' scripts run here too, sandboxed, in the connection's workspace.
        let caller = ToolCaller(
            backend: ScriptToolBackend(base: backend, host: host, stateDirectory: HistoryOptions.directory(parsed)), approval: configuration.approval, recorder: recorder, sessionID: sessionID,
            sessionContext: context, forwardsCallIDs: true)
        let server = MCPServer(
            configuration: configuration, caller: caller, skills: skills, send: transport.write, log: log,
            callExecutor: transport.callExecutor, replyPoller: transport.replyPoller)
        let watcher = MCPChangeWatcher(paths: [host.paths.registry, host.paths.plugins] + skills.watchedPaths) {
            server.refresh()
        }
        watcher.start()  // first, so a change while the first listing is built is seen
        server.refresh()
        await transport.run(server)
        watcher.stop()
        await host.shutdown()
        recorder?.flush()
        return ExitCode.success
    }
}
