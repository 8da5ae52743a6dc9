import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import SkillWorkflows
import Synchronization

/// `skillhost call SKILL_ID [JSON|-] [--yes] [--json]`: calls one skill and prints its result.
enum CallCommand: Command {
    static let name = "call"
    static let summary = "call one skill with JSON arguments"
    static let help = """
        usage: skillhost call SKILL_ID [JSON|-] [--yes] [--json] [--state DIR]

        Validates the arguments (a JSON object; '-' reads it from stdin; default {}) against the skill's
        parameter schema, runs the skill and prints its result JSON. Skills with permission write or
        dangerous need approval: a y/N prompt when stdin is a terminal, --yes to allow; when not
        interactive they are denied. The skill's timeout counts from when it starts, not while you answer.

        Every call is recorded in the history (front end "call"; see 'skillhost trace').

        Options:
          --yes        approve write/dangerous skills without asking
          --json       print {"ok":true,"result":...} or {"ok":false,"error":{"kind","message","details"}}
          --state DIR  folder of the history database (env SKILLHOST_STATE; default $XDG_STATE_HOME/skillhost)

        Exit codes: \(ExitCode.notFound) not found, \(ExitCode.disabled) disabled, \(ExitCode.invalidArguments) invalid arguments,
        \(ExitCode.skillFailed) skill failed or invalid result, \(ExitCode.timeout) timeout, \(ExitCode.pluginCrashed) plugin crashed,
        \(ExitCode.invalidPlugin) invalid plugin, \(ExitCode.denied) denied, \(ExitCode.rateLimited) rate limited (docs/cli.md).
        """

    /// The spare worker `main` forked before anything else ran (``SpareWorker/forkEarly(executable:)``).
    static let earlySpare = Mutex<SpareWorker?>(nil)

    static func run(_ arguments: [String]) async throws -> Int32 {
        var early = earlySpare.withLock { spare in
            defer { spare = nil }
            return spare
        }
        // A command line refused before the host exists ends the forked spare here (it loaded nothing).
        defer { early?.discard() }
        let parsed = try ParsedArguments(arguments, flags: ["--yes", "--json"], options: ["--state"])
        guard (1...2).contains(parsed.positionals.count) else {
            throw UsageError("expected SKILL_ID and optionally a JSON object (or '-' for stdin)")
        }
        let text = parsed.positionals.count == 2 ? parsed.positionals[1] : "{}"
        let bytes = text == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : Array(text.utf8)
        let host = HostOptions.host(parsed)
        // The worker is ready for its plugin while this process reads the catalog and runs the gates: forked
        // first thing in main, or started now.
        if let spare = early {
            early = nil
            host.holdSpareWorker(spare)
        } else {
            await host.startSpareWorker()
        }
        let skillID = parsed.positionals[0]
        var tool: SkillTool?
        var unknown: HostError?
        var provenance: [String: PluginProvenance] = [:]
        // MCP servers' tools (docs/mcp-sources.md) and installed workflows (docs/workflows.md) are skills too.
        let sources = MCPSourceText.backend(parsed, host: host, base: HostSkillBackend(host: host))
        defer { sources.shutdown() }
        let backend = WorkflowCommand.backend(wrapping: sources, host: host, parsed)
        if skillID.hasPrefix(InstalledWorkflows.prefix) {
            // An installed workflow (docs/workflows.md): its tool comes from the workflows folder.
            tool = (try? await backend.listTools())?.first { $0.id == skillID }
            if tool == nil {
                unknown = HostError(.notFound, "no workflow \"\(skillID.dropFirst(InstalledWorkflows.prefix.count))\" is installed and valid; see 'skillhost workflow list'", skillID: skillID)
            }
        } else { do {
            if let entry = try host.mcpServers().first(where: { Identifier.skillName(Identifier.normalize(skillID), inPlugin: $0.name) != nil }) {
                // An MCP server's tool: the server is started (confined) to find it.
                tool = SkillTool(try await sources.tool(Identifier.normalize(skillID), of: entry).skill)
            } else {
                let skill = try host.skill(skillID)
                tool = SkillTool(skill)
                // The plugin's version, and its SHA-256 when the trust gate checks it against the registry's pin.
                let plugin = try? host.currentCatalog().plugin(skill.pluginID)
                provenance[skill.id] = PluginProvenance(version: plugin?.manifest?.version, sha256: plugin?.settings.sha256)
            }
        } catch {
            unknown = error
        } }
        let recorder = DetachedCallRecorder(
            directory: HistoryOptions.directory(parsed), redactor: SecretRedactor.standard(environment: Posix.environment()),
            provenance: provenance, report: { ErrorReporter.printError("warning: history: \($0.message)") })
        let caller = ToolCaller(
            backend: backend, approval: TerminalApproval.handler(assumeYes: parsed.has("--yes")),
            recorder: recorder)
        let outcome = await caller.call(ToolCallRequest(
            toolName: skillID, tool: tool, arguments: .bytes(bytes), callID: UUID().uuidString.lowercased(), origin: .call,
            unknownTool: unknown?.message, lookupFailure: unknown?.kind == .notFound ? nil : unknown))
        switch outcome.result {
        case .success(let result):
            // The answer first (flushed, so a reader of the pipe has it). Its record is written already, and
            // nothing the worker does from now on is shown without --verbose: the process ends at once and its
            // workers end with it (their parent-death signal), instead of after an orderly stop of their
            // sandbox (supervisor, init and worker each reaped in turn: about a millisecond of every `call`).
            HostOptions.printJSON(parsed.has("--json") ? ["ok": true, "result": result] : result)
            fflush(nil)
            if parsed.has("--verbose") { await host.shutdown() }
            return ExitCode.success
        case .failure(let error):
            await host.shutdown()
            if parsed.has("--json") {
                HostOptions.printJSON([
                    "ok": false,
                    "error": ["kind": .string(error.kind.rawValue), "message": .string(error.message), "details": error.details ?? .null],
                ])
            }
            throw error
        }
    }
}
