import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore

/// The stored session a `chat` runs in: a new one, `--session ID`, or `--continue` (the latest), with its
/// persistent history, its execution context and the recorder that writes each skill call as it happens.
struct ChatSession {
    /// The session id.
    let id: String
    /// Whether it existed before this run.
    let resumed: Bool
    /// Calls a previous run left unfinished (now marked `interrupted`).
    let interruptedCalls: Int
    /// The context skills read and write, shared by the backend and the recorder.
    let context: SessionContext
    /// The conversation, written through to the database.
    let history: PersistentHistory
    /// Records every call.
    let recorder: StoreCallRecorder

    /// The chat flags this adds.
    static let options: Set<String> = ["--session"]
    static let flags: Set<String> = ["--continue"]

    /// Opens or creates the session these arguments name.
    static func open(
        _ parsed: ParsedArguments, host: SkillHost, model: String, environment: [String: String],
        warn: @escaping @Sendable (String) -> Void
    ) throws -> ChatSession {
        if parsed.has("--continue"), parsed.options["--session"] != nil {
            throw UsageError("use --session ID or --continue, not both")
        }
        let store = try HistoryOptions.open(parsed, registry: try? host.registryStore.read())
        let redactor = SecretRedactor.standard(environment: environment)
        let report: @Sendable (StoreError) -> Void = { warn("history: \($0.message)") }
        let catalog = try? host.catalog()
        let tools = (catalog?.enabledSkills ?? []).map(SkillTool.init)
        var id = parsed.options["--session"]
        if parsed.has("--continue") {
            guard let latest = try store.latestSession() else {
                throw HostError(.notFound, "no stored session to continue in \(store.path); start one with 'skillhost chat'")
            }
            id = latest.id
        }
        var messages: [ChatMessage] = []
        var context: [String: JSONValue] = [:]
        var interrupted = 0
        let resumed = id != nil
        if let existing = id {
            let session = try ResumedSession.load(existing, from: store)
            messages = session.messages
            context = session.context
            interrupted = session.interruptedCalls
        } else {
            id = UUID().uuidString.lowercased()
            try store.createSession(id: id!, model: model)
        }
        let sessionID = id!
        let sessionContext = SessionContext(context)
        let planned = PlannedCalls()
        return ChatSession(
            id: sessionID, resumed: resumed, interruptedCalls: interrupted, context: sessionContext,
            history: PersistentHistory(
                store: store, sessionID: sessionID, messages: messages, tools: tools, redactor: redactor, planned: planned,
                report: report),
            recorder: StoreCallRecorder(
                store: store, sessionID: sessionID, context: sessionContext, redactor: redactor,
                provenance: provenance(catalog), planned: planned, report: report))
    }

    /// The line chat prints on stderr when it starts.
    var notice: String {
        if resumed {
            let note = interruptedCalls > 0 ? "; \(interruptedCalls) call(s) left unfinished by the last run are marked interrupted" : ""
            return "resuming session \(id)\(note)"
        }
        return "new session \(id) (resume with 'skillhost chat --session \(id)')"
    }

    /// Plugin version and file hash for each skill.
    private static func provenance(_ catalog: Catalog?) -> [String: PluginProvenance] {
        var result: [String: PluginProvenance] = [:]
        for plugin in catalog?.plugins ?? [] where plugin.isUsable {
            let origin = PluginProvenance(
                version: plugin.manifest?.version, sha256: try? FileDigest.sha256(ofFile: plugin.path))
            for skill in plugin.skills { result[skill.id] = origin }
        }
        return result
    }
}
