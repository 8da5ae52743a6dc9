import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore

/// A conversation kept in the history database, as every chat front end opens it (`skillhost chat` and
/// `skillhost ui`): a new session or a stored one resumed, its persistent history, its execution context
/// and the recorder that writes each skill call as it happens.
public struct StoredChat: Sendable {
    /// The session id.
    public let id: String
    /// Whether it existed before.
    public let resumed: Bool
    /// Calls a previous run left unfinished (now marked `interrupted`).
    public let interruptedCalls: Int
    /// The context skills read and write, shared by the backend and the recorder.
    public let context: SessionContext
    /// The conversation, written through to the database.
    public let history: PersistentHistory
    /// Records every call.
    public let recorder: StoreCallRecorder

    /// Opens session `sessionID` from `store` (nil: creates a new one for `model`), with `tools` as the
    /// tools its history knows (their schemas redact arguments, their ids name the recorded calls; nil: the
    /// enabled skills of `host`'s catalog) and secrets of `environment` redacted. A front end whose backend
    /// adds tools (MCP servers', workflows) passes that backend's, or their calls are recorded under their
    /// wire names.
    /// - Throws: ``StoreError`` or ``HostError`` (`notFound` for an unknown session id).
    public static func open(
        _ sessionID: String?, store: HistoryStore, host: SkillHost, model: String, environment: [String: String],
        tools offered: [SkillTool]? = nil, warn: @escaping @Sendable (String) -> Void
    ) throws -> StoredChat {
        let redactor = SecretRedactor.standard(environment: environment)
        let report: @Sendable (StoreError) -> Void = { warn("history: \($0.message)") }
        let catalog = try? host.catalog()
        let tools = offered ?? (catalog?.enabledSkills ?? []).map(SkillTool.init)
        var messages: [ChatMessage] = []
        var context: [String: JSONValue] = [:]
        var interrupted = 0
        let id: String
        if let existing = sessionID {
            let session = try ResumedSession.load(existing, from: store)
            messages = session.messages
            context = session.context
            interrupted = session.interruptedCalls
            id = existing
        } else {
            id = UUID().uuidString.lowercased()
            try store.createSession(id: id, model: model)
        }
        let sessionContext = SessionContext(context)
        let planned = PlannedCalls()
        return StoredChat(
            id: id, resumed: sessionID != nil, interruptedCalls: interrupted, context: sessionContext,
            history: PersistentHistory(
                store: store, sessionID: id, messages: messages, tools: tools, redactor: redactor, planned: planned,
                report: report),
            recorder: StoreCallRecorder(
                store: store, sessionID: id, context: sessionContext, redactor: redactor,
                provenance: provenance(catalog), planned: planned, report: report))
    }

    /// The agent of this conversation over `host`'s skills: instruction skills and their scripts (run in
    /// the session's workspace under `stateDirectory`) on top of the host's plugins, the one stack of
    /// backends every chat front end uses. `skills` is the plugin backend (the provider asks it which skills
    /// are switched off).
    public func agent(
        provider: any ModelProvider, host: SkillHost, skills: any SkillBackend, stateDirectory: String,
        configuration: AgentConfiguration, library: (any InstructionLibrary)? = nil
    ) -> Agent {
        var configuration = configuration
        configuration.sessionID = id
        configuration.recorder = recorder
        configuration.sessionContext = context
        return Agent(
            provider: provider,
            backend: InstructionSkillBackend(
                base: Self.scripts(ScriptToolBackend(base: skills, host: host, stateDirectory: stateDirectory), library, stateDirectory),
                library: library ?? HostInstructionLibrary(host: host)),
            history: history, configuration: configuration)
    }

    /// The script tool: the local skills', and MCP servers' skills' too when the library has them.
    private static func scripts(_ local: ScriptToolBackend, _ library: (any InstructionLibrary)?, _ stateDirectory: String) -> any SkillBackend {
        guard let remote = (library as? MCPInstructionLibrary)?.remote else { return local }
        return MCPSkillScriptBackend(base: local, catalog: remote, stateDirectory: stateDirectory)
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
