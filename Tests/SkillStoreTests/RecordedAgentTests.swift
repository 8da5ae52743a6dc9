import SkillCalls
import Foundation
import SkillAgent
import SkillHostCore
import SkillJSON
import SkillStore
import Testing

/// The agent loop writing to a real SQLite file through ``StoreCallRecorder`` and ``PersistentHistory``,
/// with each "process" of a session modelled as a fresh agent over ``ResumedSession``.
@Suite struct RecordedAgentTests {
    static let addNote = SkillTool(
        id: "notes.add", title: "Add a note", description: "Adds a note.",
        parameters: ["type": "object", "properties": ["text": ["type": "string"], "password": ["type": "string", "writeOnly": true]]],
        permission: .write, timeout: 0.3, idempotent: false)
    static let remember = SkillTool(id: "memo.set", description: "Remembers a value.", idempotent: true)
    static let recall = SkillTool(id: "memo.get", description: "Says the remembered value.", idempotent: true)

    /// An agent for `sessionID` in `store`, resuming what is stored.
    static func agent(
        _ store: HistoryStore, _ sessionID: String, model: ScriptModel, skills: [ClosureBackend.Skill],
        approval: any ApprovalHandler = AllowAllApproval(), secrets: [String] = [], maxSteps: Int = 8
    ) throws -> (Agent, ClosureBackend) {
        if try store.session(id: sessionID) == nil { try store.createSession(id: sessionID) }
        let resumed = try ResumedSession.load(sessionID, from: store)
        let context = SessionContext(resumed.context)
        let backend = ClosureBackend(skills, context: context)
        let redactor = SecretRedactor(secrets: secrets)
        var configuration = AgentConfiguration(maxSteps: maxSteps, approval: approval, sessionID: sessionID)
        let planned = PlannedCalls()
        configuration.recorder = StoreCallRecorder(
            store: store, sessionID: sessionID, context: context, redactor: redactor, planned: planned)
        let history = PersistentHistory(
            store: store, sessionID: sessionID, messages: resumed.messages, tools: skills.map(\.tool), redactor: redactor,
            planned: planned)
        return (Agent(provider: model, backend: backend, history: history, configuration: configuration), backend)
    }

    static let noteSkill = ClosureBackend.Skill(tool: addNote) { arguments, _ in
        .success(["saved": arguments["text"] ?? .null])
    }

    @Test func repeatedNonIdempotentCallIsReplayedAcrossAResume() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let call = (id: "a", tool: "notes_add", arguments: ["text": "milk"] as JSONValue)
        let (first, firstBackend) = try Self.agent(store, "s", model: ScriptModel([reply(call)]), skills: [Self.noteSkill])
        let events1 = await turn(first, "note milk")
        #expect(firstBackend.runs(of: "notes.add") == 1)
        #expect(events1.contains { if case .skillSucceeded(let info, _, _) = $0 { !info.replayed } else { false } })

        // The next run of the session: the model asks for the same note again (a new call id).
        let again = (id: "b", tool: "notes_add", arguments: ["text": "milk"] as JSONValue)
        let (second, secondBackend) = try Self.agent(store, "s", model: ScriptModel([reply(again)]), skills: [Self.noteSkill])
        let events2 = await turn(second, "note milk again")
        #expect(secondBackend.runs(of: "notes.add") == 0, "the skill did not run again")
        let replayed = events2.compactMap { event -> JSONValue? in
            if case .skillSucceeded(let info, let result, _) = event, info.replayed { result } else { nil }
        }
        #expect(replayed == [["saved": "milk"]])
        let statuses = try store.calls(matching: TraceFilter(sessionID: "s")).map(\.status)
        #expect(statuses == [.replayed, .succeeded])

        // Different arguments are a different call and run.
        let other = (id: "c", tool: "notes_add", arguments: ["text": "eggs"] as JSONValue)
        let (third, thirdBackend) = try Self.agent(store, "s", model: ScriptModel([reply(other)]), skills: [Self.noteSkill])
        _ = await turn(third, "note eggs")
        #expect(thirdBackend.runs(of: "notes.add") == 1)
        #expect(thirdBackend.idempotencyKeys.first?.hasPrefix("s/notes.add/") == true, "the skill gets the recorded key")
    }

    @Test func retryOfAFailedNonIdempotentCallAsksFirst() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let slowNote = ClosureBackend.Skill(tool: Self.addNote) { _, _ in
            try? await Task.sleep(for: .seconds(3))
            return .success(["saved": true])
        }
        let call = (id: "a", tool: "notes_add", arguments: ["text": "rent"] as JSONValue)
        let (first, _) = try Self.agent(store, "s", model: ScriptModel([reply(call)]), skills: [slowNote])
        let events1 = await turn(first, "pay rent")
        #expect(events1.contains { if case .skillFailed(_, let error, _) = $0 { error.kind == .timeout } else { false } })

        let asked = AskLog()
        let approval = ClosureApproval { request in
            asked.append(request.note ?? "")
            return false
        }
        let (second, backend) = try Self.agent(store, "s", model: ScriptModel([reply(call)]), skills: [slowNote], approval: approval)
        let events2 = await turn(second, "pay rent again")
        #expect(backend.runs(of: "notes.add") == 0, "refused: not run again")
        #expect(asked.notes.count == 1)
        #expect(asked.notes.first?.contains("failed (timeout)") == true)
        #expect(events2.contains { if case .skillFailed(_, let error, _) = $0 { error.kind == .denied } else { false } })
    }

    @Test func timedOutCallIsFoundByTraceFailedWithItsDuration() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let slowNote = ClosureBackend.Skill(tool: Self.addNote) { _, _ in
            try? await Task.sleep(for: .seconds(3))
            return .success(["saved": true])
        }
        let call = (id: "a", tool: "notes_add", arguments: ["text": "x"] as JSONValue)
        let (agent, _) = try Self.agent(store, "s", model: ScriptModel([reply(call)]), skills: [slowNote])
        _ = await turn(agent, "note x")
        let run = try CLI.run(["trace", "--failed", "--json", "--state", state.directory])
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try #require(try JSONValue(parsing: run.stdout).arrayValue)
        #expect(calls.count == 1)
        #expect(calls.first?["skill"] == "notes.add")
        #expect(calls.first?["status"] == "failed")
        #expect(calls.first?["error"]?["kind"] == "timeout")
        let duration = try #require(calls.first?["duration_ms"]?.doubleValue)
        #expect(duration >= 300 && duration < 3000, "timeout 0.3 s, recorded as \(duration) ms")
        let text = try CLI.run(["trace", "--failed", "--since", "1h", "--state", state.directory])
        #expect(text.stdout.contains("failed      notes.add"))
        #expect(text.stdout.contains("timeout: skill notes.add timed out after "))
    }

    @Test func contextHandedFromOneSkillToTheNextAcrossAResume() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let set = ClosureBackend.Skill(tool: Self.remember) { arguments, context in
            context.set(arguments["value"] ?? .null, forKey: "remembered")
            return .success(["ok": true])
        }
        let get = ClosureBackend.Skill(tool: Self.recall) { _, context in
            .success(["value": context.value(forKey: "remembered") ?? .null])
        }
        let (first, _) = try Self.agent(
            store, "s", model: ScriptModel([reply((id: "1", tool: "memo_set", arguments: ["value": "blue"]))]), skills: [set, get])
        _ = await turn(first, "remember blue")
        #expect(try store.context(session: "s") == ["remembered": "\"blue\""])

        let (second, _) = try Self.agent(
            store, "s", model: ScriptModel([reply((id: "1", tool: "memo_get", arguments: [:]))]), skills: [set, get])
        let events = await turn(second, "what did I say?")
        let results = events.compactMap { if case .skillSucceeded(_, let result, _) = $0 { result } else { nil } }
        #expect(results == [["value": "blue"]])
        // The resumed model saw the first run's conversation.
        #expect(try store.messages(session: "s").first?.content == "remember blue")
    }

    @Test func callsRefusedAtTheStepCapAreRecordedAsNotRun() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let call = (id: "a", tool: "notes_add", arguments: ["text": "x"] as JSONValue)
        let model = ScriptModel([reply(call)], ignoresToolChoice: true)
        let (agent, backend) = try Self.agent(store, "s", model: model, skills: [Self.noteSkill], maxSteps: 0)
        _ = await turn(agent, "note x")
        #expect(backend.runs(of: "notes.add") == 0)
        let calls = try store.calls(matching: TraceFilter(sessionID: "s"))
        #expect(calls.map(\.status) == [.failed])
        #expect(calls.first?.errorKind == "notRun")
        #expect(calls.first?.error?.contains("limit of 0 tool steps") == true)
    }

    @Test func secretsNeverReachTheFile() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let apiKey = "sk-test-\(UUID().uuidString)"
        let password = "hunter2-\(UUID().uuidString.prefix(6))"
        let echo = ClosureBackend.Skill(tool: Self.addNote) { arguments, _ in
            .success(["authorization": "Bearer abcdefghijklmnop", "note": arguments["text"] ?? .null])
        }
        let call = (id: "a", tool: "notes_add", arguments: ["text": .string("key is \(apiKey)"), "password": .string(password)] as JSONValue)
        let (agent, _) = try Self.agent(store, "s", model: ScriptModel([reply(call)]), skills: [echo], secrets: [apiKey])
        _ = await turn(agent, "my key is \(apiKey)")
        let calls = try store.calls(matching: TraceFilter())
        #expect(calls.first?.argumentsJSON.contains(SecretRedactor.placeholder) == true)
        let files = [state.databasePath, state.databasePath + "-wal"].map(TempState.bytes)
        for bytes in files {
            #expect(bytes.range(of: Data(apiKey.utf8)) == nil)
            #expect(bytes.range(of: Data(password.utf8)) == nil)
            #expect(bytes.range(of: Data("abcdefghijklmnop".utf8)) == nil)
        }
        #expect(files[0].count + files[1].count > 0)
    }
}

/// Notes an approval handler was asked with.
final class AskLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ note: String) { lock.withLock { stored.append(note) } }
    var notes: [String] { lock.withLock { stored } }
}
