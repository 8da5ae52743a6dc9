import SkillCalls
import SkillHostCore
import SkillJSON

/// `skillhost set ID KEY VALUE | --reset [--json]`: one registry setting of a skill — a plugin skill's
/// approval, timeout or rate limit, an instruction skill's scripts' permission or approval.
enum SetCommand: Command {
    static let name = "set"
    static let summary = "set a skill's approval, permission, timeout or rate limit (or an MCP server's dynamic_skills) in the registry"
    static let help = """
        usage: skillhost set ID KEY VALUE [--json]
               skillhost set ID KEY --reset [--json]

        Records one setting of a skill in the registry (locked, atomic), checked as a hand-edited registry is.
        --reset removes it, so the default applies again.

        For a plugin's skill (ID like clock.now), at plugins.<plugin>.skills.<skill>.KEY:
          approval ask|allow|deny            ask before each call, run without asking, or refuse
          timeout SECONDS                    the call's time limit
          rate_limit_per_minute N            calls per minute (0: no limit)
        For an instruction skill's scripts (run_skill_script; ID like report-maker):
          permission read|write|dangerous    what its scripts may do (default write), at plugins.<id>.permission;
                                             read runs without asking, write asks (--yes or MCP --allow-writes
                                             approve), dangerous asks and --allow-writes does not cover it
          approval ask|allow|deny            at plugins.<id>.skills.run_skill_script.approval
        For an MCP server's tool (ID like time.get_current_time), at mcp_servers.<name>.tools.<id>.KEY:
          approval, timeout, rate_limit_per_minute  as for a plugin's skill
          permission read|write|dangerous    instead of what the server's annotations imply
        For an MCP server (ID like docs; skillhost add-mcp):
          dynamic_skills allow|refuse        whether its Skills-extension skills whose resources are "dynamic"
                                             (no digests) may be used (default refuse), at
                                             mcp_servers.<name>.dynamic_skills (dynamic-skills is accepted too)

        Options:
          --reset   remove the setting
          --json    print {"id","key","path","value","previous"} (null: not set)

        Exit codes: \(ExitCode.usage) wrong arguments, \(ExitCode.notFound) unknown id, \(ExitCode.invalidArguments) a key or value the id does not take, \(ExitCode.registryError) registry malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json", "--reset"], options: [])
        let reset = parsed.has("--reset")
        let count = parsed.positionals.count
        guard count == (reset ? 2 : 3) else {
            if reset, count == 3 { throw UsageError("--reset takes no VALUE; use 'skillhost set ID KEY --reset'") }
            throw UsageError("expected ID KEY VALUE (or ID KEY --reset), e.g. 'skillhost set clock.now approval allow'")
        }
        let host = HostOptions.host(parsed)
        try await checkMCPTool(parsed.positionals[0], parsed, host: host)
        let change = try host.setSetting(
            parsed.positionals[0], key: parsed.positionals[1], value: reset ? nil : parsed.positionals[2])
        if parsed.has("--json") {
            HostOptions.printJSON([
                "id": .string(change.id), "key": .string(change.key), "path": .string(change.path),
                "value": change.value ?? .null, "previous": change.previous ?? .null,
            ])
        } else {
            let was = change.previous.map { $0.serialized() } ?? "not set"
            print(change.value.map { "set \(change.path) = \($0.serialized()) (was: \(was))" } ?? "reset \(change.path) (was: \(was)); the default applies")
        }
        return ExitCode.success
    }

    /// When `id` names an MCP server's tool (`NAME.tool`, no plugin skill of that id), that the server has it:
    /// the server is started (confined) and its tools listed, so a misspelt tool is refused with "did you
    /// mean" instead of writing an entry nothing reads. A server that cannot start now is not a reason to
    /// refuse the setting: a warning says it was not checked.
    static func checkMCPTool(_ rawID: String, _ parsed: ParsedArguments, host: SkillHost) async throws {
        let id = Identifier.normalize(rawID)
        guard (try? host.catalog().skill(id)) ?? nil == nil,
            let entry = try host.mcpServers().first(where: { Identifier.skillName(id, inPlugin: $0.name).map(Identifier.isValidSegment) == true })
        else { return }
        let backend = MCPSourceText.backend(parsed, host: host, base: HostSkillBackend(host: host))
        defer { backend.shutdown() }
        do throws(HostError) {
            _ = try await backend.tool(id, of: entry)
        } catch where error.kind == .notFound {
            throw error
        } catch {
            ErrorReporter.printError("set: warning: \(id) was not checked against MCP server \(entry.name)'s tools (\(error.message))")
        }
    }
}
