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
        let skills: [JSONValue] = catalog.plugins.flatMap { plugin in
            plugin.skills.map { skill in
                ["id": .string(skill.id), "plugin": .string(plugin.id), "plugin_status": .string(plugin.status.rawValue),
                 "enabled": .bool(skill.enabled && plugin.enabled), "permission": .string(skill.permission.rawValue)]
            }
        }
        let trace = try store.calls(matching: TraceFilter(limit: 50))
        var last: JSONValue = .null
        var lastText: [String] = ["last session: none"]
        if let session = try store.latestSession() {
            let messages = try store.messages(session: session.id)
            let calls = try store.calls(matching: TraceFilter(sessionID: session.id, limit: 1000))
            let state = SessionSnapshot.state(messages: messages, calls: calls)
            let keys = try store.context(session: session.id).keys.sorted()
            last = [
                "session": HistoryJSON.session(session), "state": .string(state),
                "last_messages": .array(messages.suffix(4).map(HistoryJSON.message)),
                "context_keys": .array(keys.map(JSONValue.string)),
            ]
            lastText = [
                "last session: \(session.id)  \(session.title)", "  agent state: \(state)",
                "  messages: \(session.messageCount), calls: \(session.callCount)",
                "  context keys: " + (keys.isEmpty ? "(none)" : keys.joined(separator: ", ")),
            ]
        }
        if parsed.has("--json") {
            HostOptions.printJSON([
                "history": ["file": .string(store.path), "schema_version": .int(store.schemaVersion)],
                "last_session": last, "skills": .array(skills), "trace": .array(trace.map(HistoryJSON.call)),
            ])
            return ExitCode.success
        }
        print("history: \(store.path) (schema \(store.schemaVersion))")
        lastText.forEach { print($0) }
        print("skills:")
        for plugin in catalog.plugins {
            for skill in plugin.skills {
                print("  \(skill.id)  \(skill.enabled && plugin.enabled ? "enabled" : "disabled")  plugin \(plugin.status.rawValue)")
            }
        }
        print(trace.count == 1 ? "last call:" : "last \(trace.count) calls:")
        trace.forEach { print("  " + HistoryJSON.callLine($0)) }
        return ExitCode.success
    }
}
