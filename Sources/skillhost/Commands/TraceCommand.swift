import SkillHostCore
import SkillJSON
import SkillStore

/// `skillhost trace`: recorded skill calls with durations, statuses and errors.
enum TraceCommand: Command {
    static let name = "trace"
    static let summary = "show recorded skill calls with durations, statuses and errors"
    static let help = """
        usage: skillhost trace [--skill ID] [--failed] [--since 1h] [--limit N] [--session ID] [--json]

        Recorded skill calls of every front end (chat, mcp, call), newest first: start time, status
        (succeeded, failed, interrupted, replayed, refused, started), skill, the front end in brackets (with
        the MCP client's name: [mcp: Claude Desktop]), duration and the summary or the error (kind: message).

        Options:
          --skill ID      only this skill
          --failed        only failed and interrupted calls (timeouts included)
          --since D       only calls started in the last D: 90s, 15m, 1h, 2d, 1w
          --limit N       at most N calls (default 50)
          --session ID    only calls of this session
          --json          print a JSON array of call objects (shape in docs/cli.md)
          --state DIR     folder of the history database (env SKILLHOST_STATE)
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments, flags: ["--json", "--failed"],
            options: HistoryOptions.options.union(["--skill", "--since", "--limit", "--session"]))
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        var limit = 50
        if let text = parsed.options["--limit"] {
            guard let value = Int(text), value > 0 else { throw UsageError("--limit needs a whole number above 0, not '\(text)'") }
            limit = value
        }
        let store = try HistoryOptions.open(parsed, registry: HistoryOptions.registry(parsed))
        let since = try parsed.options["--since"].map { store.now() - (try HistoryJSON.duration($0)) }
        let filter = TraceFilter(
            skillID: parsed.options["--skill"].map(Identifier.normalize), sessionID: parsed.options["--session"],
            failedOnly: parsed.has("--failed"), sinceMilliseconds: since, limit: limit)
        let calls = try store.calls(matching: filter)
        if parsed.has("--json") {
            HostOptions.printJSON(.array(calls.map(HistoryJSON.call)))
        } else if calls.isEmpty {
            print("no recorded calls match")
        } else {
            for call in calls { print(HistoryJSON.callLine(call)) }
        }
        return ExitCode.success
    }
}
