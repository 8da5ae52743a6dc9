import Foundation
import SkillAgent
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore

/// The stored session a `chat` runs in: a new one, `--session ID`, or `--continue` (the latest). What it
/// holds, and how the agent on it is built, is SkillAgent's ``StoredChat`` (which `skillhost ui` shares);
/// this reads the flags.
struct ChatSession {
    /// The conversation.
    let chat: StoredChat

    /// The session id.
    var id: String { chat.id }

    /// The chat flags this adds.
    static let options: Set<String> = ["--session"]
    static let flags: Set<String> = ["--continue"]

    /// Opens or creates the session these arguments name; `tools` are what its history knows (nil: the
    /// catalog's enabled skills).
    static func open(
        _ parsed: ParsedArguments, host: SkillHost, model: String, environment: [String: String], tools: [SkillTool]? = nil,
        warn: @escaping @Sendable (String) -> Void
    ) throws -> ChatSession {
        if parsed.has("--continue"), parsed.options["--session"] != nil {
            throw UsageError("use --session ID or --continue, not both")
        }
        let store = try HistoryOptions.open(parsed, registry: try? host.registryStore.read())
        var id = parsed.options["--session"]
        if parsed.has("--continue") {
            guard let latest = try store.latestSession() else {
                throw HostError(.notFound, "no stored session to continue in \(store.path); start one with 'skillhost chat'")
            }
            id = latest.id
        }
        return ChatSession(
            chat: try StoredChat.open(id, store: store, host: host, model: model, environment: environment, tools: tools, warn: warn))
    }

    /// The line chat prints on stderr when it starts.
    var notice: String {
        if chat.resumed {
            let note = chat.interruptedCalls > 0 ? "; \(chat.interruptedCalls) call(s) left unfinished by the last run are marked interrupted" : ""
            return "resuming session \(id)\(note)"
        }
        return "new session \(id) (resume with 'skillhost chat --session \(id)')"
    }
}
