import SkillAgent
import SkillJSON
import SkillStore

/// `skillhost history [ID] [--json] [--delete ID]`: stored sessions and transcripts.
enum HistoryCommand: Command {
    static let name = "history"
    static let summary = "list stored chat sessions, show one transcript, or delete one"
    static let help = """
        usage: skillhost history [--json] [--limit N]
               skillhost history ID [--json]
               skillhost history --delete ID

        Without ID: the stored sessions, most recently active first (id, last active, messages, calls, title).
        With ID: that session's transcript; each assistant message is followed by the cards of the skill
        calls it made (ok, failed, interrupted, replayed, refused) with their durations; a session of
        'skillhost mcp' (one per connection) or of 'skillhost call' (one per day) lists its calls. --delete
        removes a session with its messages, calls and context. Resume a chat with 'skillhost chat --session ID'.

        Options:
          --json            print JSON (shapes in docs/cli.md)
          --limit N         list at most N sessions (default 50)
          --delete ID       delete session ID
          --state DIR       folder of the history database (env SKILLHOST_STATE)
          --keep-days N, --keep-sessions N   retention applied on start (docs/history.md)

        Exit codes: \(ExitCode.notFound) when there is no session ID.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: HistoryOptions.options.union(["--delete", "--limit"]))
        let store = try HistoryOptions.open(parsed, registry: HistoryOptions.registry(parsed))
        let json = parsed.has("--json")
        if let id = parsed.options["--delete"] {
            guard parsed.positionals.isEmpty else { throw UsageError("--delete takes the session id; no other ids") }
            guard try store.deleteSession(id: id) else {
                throw StoreError(.notFound, "no session \"\(id)\" in \(store.path); run 'skillhost history' to see the sessions")
            }
            if json { HostOptions.printJSON(["deleted": .string(id)]) } else { print("deleted session \(id)") }
            return ExitCode.success
        }
        switch parsed.positionals.count {
        case 0:
            var limit = 50
            if let text = parsed.options["--limit"] {
                guard let value = Int(text), value > 0 else { throw UsageError("--limit needs a whole number above 0, not '\(text)'") }
                limit = value
            }
            let sessions = try store.sessions(limit: limit)
            if json {
                HostOptions.printJSON(.array(sessions.map(HistoryJSON.session)))
            } else if sessions.isEmpty {
                print("no stored sessions in \(store.path); 'skillhost chat' starts one")
            } else {
                for session in sessions {
                    print("\(session.id)  \(HistoryJSON.timestamp(session.lastActiveMilliseconds))  \(HistoryJSON.counted(session.messageCount, "message")), \(HistoryJSON.counted(session.callCount, "call"))  \(session.title)")
                }
            }
        case 1:
            try show(parsed.positionals[0], store, json: json)
        default:
            throw UsageError("expected at most one session id")
        }
        return ExitCode.success
    }

    private static func show(_ id: String, _ store: HistoryStore, json: Bool) throws {
        guard let session = try store.session(id: id) else {
            throw StoreError(.notFound, "no session \"\(id)\" in \(store.path); run 'skillhost history' to see the sessions")
        }
        let messages = try store.messages(session: id)
        let calls = try store.calls(matching: TraceFilter(sessionID: id, limit: 1_000_000)).reversed()
        let context = try store.context(session: id)
        if json {
            var contextObject = JSONObject()
            for (key, text) in context.sorted(by: { $0.key < $1.key }) { contextObject[key] = (try? JSONValue(parsing: text)) ?? .string(text) }
            HostOptions.printJSON([
                "session": HistoryJSON.session(session), "messages": .array(messages.map(HistoryJSON.message)),
                "calls": .array(calls.map(HistoryJSON.call)), "context": .object(contextObject),
            ])
            return
        }
        print("session \(session.id)  \(session.title)")
        print("  created \(HistoryJSON.timestamp(session.createdMilliseconds)), last active \(HistoryJSON.timestamp(session.lastActiveMilliseconds)), model \(session.model)")
        for message in messages where message.role != "tool" {
            if !message.content.isEmpty { print("\(message.role): \(message.content)") }
            for call in calls where call.messagePosition == message.position && message.role == "assistant" {
                print(card(call))
            }
        }
        // Calls no message asked for: those of the front ends without a conversation (mcp, call).
        // A workflow run's calls are its steps: each card names its step (the call id) and the skill.
        let steps = id.hasPrefix("workflow-")
        for call in calls where call.messagePosition == nil { print(card(call, step: steps)) }
        if !context.isEmpty { print("context keys: " + context.keys.sorted().joined(separator: ", ")) }
    }

    /// A stored call as the chat's plain card.
    static func card(_ call: CallRecord, step: Bool = false) -> String {
        let name = step ? "\(call.callID) (\(call.skillID))" : call.skillID
        let duration = call.durationMilliseconds.map { " (" + HistoryJSON.milliseconds($0) + ")" } ?? ""
        switch call.status {
        case .succeeded: return "  [ok] \(name): \(call.summary ?? "")\(duration)"
        case .replayed: return "  [ok] \(name): replayed: \(call.summary ?? "")\(duration)"
        case .failed: return "  [failed] \(name): \(call.errorKind ?? "error"): \(call.error ?? "")\(duration)"
        case .interrupted: return "  [interrupted] \(name): \(call.error ?? "")"
        case .refused: return "  [refused] \(name): \(call.error ?? "")"
        case .started: return "  [running] \(name)"
        }
    }
}
