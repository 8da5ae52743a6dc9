import SkillAgent
import SkillHostCore
import SkillJSON
import SkillStore

/// `skillhost debug`: the product brief's debug view in one screen.
enum DebugCommand: Command {
    static let name = "debug"
    static let summary = "show the last session's state, registered skills, recent calls and context keys"
    static let help = """
        usage: skillhost debug [--json]

        One view for finding out what happened: the history database (file, schema version), the agent
        state of the last session (finished, cancelled, failed, thinking, executingSkill, interrupted, empty) with its last
        messages, the registered skills (enabled, plugin status), the last 50 recorded calls and the last
        session's context keys.

        Options:
          --json        print one JSON object (shape in docs/cli.md)
          --state DIR   folder of the history database (env SKILLHOST_STATE)
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: HistoryOptions.options)
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let host = HostOptions.host(parsed)
        let store = try HistoryOptions.open(parsed, registry: try? host.registryStore.read())
        let catalog = try host.catalog()
        let snapshot = try DebugSnapshot.json(store: store, catalog: catalog)
        if parsed.has("--json") {
            HostOptions.printJSON(snapshot)
            return ExitCode.success
        }
        print("history: \(store.path) (schema \(store.schemaVersion))")
        if let last = snapshot["last_session"], let session = last["session"] {
            let keys = last["context_keys"]?.arrayValue?.compactMap(\.stringValue) ?? []
            print("last session: \(session["id"]?.stringValue ?? "")  \(session["title"]?.stringValue ?? "")")
            print("  agent state: \(last["state"]?.stringValue ?? "")")
            print("  messages: \(session["messages"]?.intValue ?? 0), calls: \(session["calls"]?.intValue ?? 0)")
            print("  context keys: " + (keys.isEmpty ? "(none)" : keys.joined(separator: ", ")))
        } else {
            print("last session: none")
        }
        print("skills:")
        for plugin in catalog.plugins {
            for skill in plugin.skills {
                print("  \(skill.id)  \(skill.enabled && plugin.enabled ? "enabled" : "disabled")  plugin \(plugin.status.rawValue)")
            }
        }
        let trace = try store.calls(matching: TraceFilter(limit: 50))
        print(trace.count == 1 ? "last call:" : "last \(trace.count) calls:")
        trace.forEach { print("  " + HistoryJSON.callLine($0)) }
        return ExitCode.success
    }
}
