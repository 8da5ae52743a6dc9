import SkillHostCore
import SkillJSON
import SkillStore

/// What `skillhost debug` shows and `skillhost ui`'s Trace view shows beside the timeline, built once: the
/// history database (file, schema version), a session's agent state (``SessionSnapshot``) with its last
/// messages and context keys, the registered skills, and the last 50 recorded calls.
public enum DebugSnapshot {
    /// The snapshot for session `sessionID` (nil: the most recently active one), as `debug --json` prints it:
    /// `{"history": {"file", "schema_version"}, "last_session": {"session", "state", "last_messages",
    /// "context_keys"} or null, "skills": [{"id", "plugin", "plugin_status", "enabled", "permission"}],
    /// "trace": [calls]}`.
    public static func json(store: HistoryStore, catalog: Catalog, session sessionID: String? = nil) throws(StoreError) -> JSONValue {
        let skills: [JSONValue] = catalog.plugins.flatMap { plugin in
            plugin.skills.map { skill in
                ["id": .string(skill.id), "plugin": .string(plugin.id), "plugin_status": .string(plugin.status.rawValue),
                 "enabled": .bool(skill.enabled && plugin.enabled), "permission": .string(skill.permission.rawValue)]
            }
        }
        let trace = try store.calls(matching: TraceFilter(limit: 50))
        var last: JSONValue = .null
        let session: SessionRecord?
        if let sessionID {
            session = try store.session(id: sessionID)
        } else {
            session = try store.latestSession()
        }
        if let session {
            let messages = try store.messages(session: session.id)
            let calls = try store.calls(matching: TraceFilter(sessionID: session.id, limit: 1000))
            let keys = try store.context(session: session.id).keys.sorted()
            last = [
                "session": RecordJSON.session(session), "state": .string(SessionSnapshot.state(messages: messages, calls: calls)),
                "last_messages": .array(messages.suffix(4).map(RecordJSON.message)),
                "context_keys": .array(keys.map(JSONValue.string)),
            ]
        }
        return [
            "history": ["file": .string(store.path), "schema_version": .int(store.schemaVersion)],
            "last_session": last, "skills": .array(skills), "trace": .array(trace.map(RecordJSON.call)),
        ]
    }
}
