import SkillCalls
import Foundation
import SkillAgent
import SkillHostCore
import SkillJSON
import SkillStore
import Testing

/// The idempotency decisions of non-idempotent calls use the earlier calls read in the transaction that
/// stored the assistant message asking for them (no read transaction of their own), plus the calls that
/// ended in this process since.
@Suite struct PlannedLookupTests {
    /// Calls of one reply run one after the other (`maxConcurrentCalls` 1; side by side, the second one's
    /// decision may come before the first one ends, with or without this).
    @Test func aRepeatedCallInTheSameReplyIsReplayed() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        let note = (id: "a", tool: "notes_add", arguments: ["text": "milk"] as JSONValue)
        let same = (id: "b", tool: "notes_add", arguments: ["text": "milk"] as JSONValue)
        let context = SessionContext()
        let backend = ClosureBackend([RecordedAgentTests.noteSkill], context: context)
        var configuration = AgentConfiguration(maxConcurrentCalls: 1, approval: AllowAllApproval(), sessionID: "s")
        let planned = PlannedCalls()
        configuration.recorder = StoreCallRecorder(store: store, sessionID: "s", context: context, planned: planned)
        let history = PersistentHistory(store: store, sessionID: "s", tools: [RecordedAgentTests.addNote], planned: planned)
        let agent = Agent(provider: ScriptModel([reply(note, same)]), backend: backend, history: history, configuration: configuration)
        let events = await turn(agent, "note milk twice")
        #expect(backend.runs(of: "notes.add") == 1, "the second call with the same key was not run")
        let replayed = events.compactMap { event -> Bool? in if case .skillSucceeded(let info, _, _) = event { info.replayed } else { nil } }
        #expect(replayed == [false, true])
        let statuses = try store.calls(matching: TraceFilter(sessionID: "s")).map(\.status)
        #expect(statuses == [.replayed, .succeeded])
    }

    /// The second reply's lookup runs in the transaction that stores it, after the first call's finish.
    @Test func aRepeatedCallInTheNextReplyIsReplayed() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        let note = (id: "a", tool: "notes_add", arguments: ["text": "milk"] as JSONValue)
        let same = (id: "b", tool: "notes_add", arguments: ["text": "milk"] as JSONValue)
        let (agent, backend) = try RecordedAgentTests.agent(
            store, "s", model: ScriptModel([reply(note), reply(same)]), skills: [RecordedAgentTests.noteSkill])
        _ = await turn(agent, "note milk, then again")
        #expect(backend.runs(of: "notes.add") == 1)
        let statuses = try store.calls(matching: TraceFilter(sessionID: "s")).map(\.status)
        #expect(statuses == [.replayed, .succeeded])
    }

    @Test func theDecisionUsesTheCallsReadWithTheMessage() async throws {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "s")
        let arguments: JSONValue = ["text": "milk"]
        let call = ToolCall(id: "b", name: "notes_add", argumentsText: arguments.serialized())
        let planned = PlannedCalls()
        let context = SessionContext()
        let history = PersistentHistory(store: store, sessionID: "s", tools: [RecordedAgentTests.addNote], planned: planned)
        let recorder = StoreCallRecorder(store: store, sessionID: "s", context: context, planned: planned)
        // An earlier call with the same arguments succeeded in this session.
        let first = RecordedCall(
            ToolCallRequest(
                toolName: "notes_add", tool: RecordedAgentTests.addNote, arguments: .text(call.argumentsText), callID: "a",
                origin: .chat),
            arguments: arguments, sessionID: "s")
        guard case .run(let key) = recorder.decision(for: first) else { Issue.record("the first call runs"); return }
        var started = first
        started.idempotencyKey = key
        let handle = recorder.callStarted(started)
        recorder.callFinished(
            handle, call: started, outcome: ToolCallOutcome(tool: started.tool, result: .success(["saved": "milk"]), seconds: 0.01))
        try store.flushFinishes()

        await history.append([ChatMessage(role: .assistant, content: "", toolCalls: [call])])
        // What the database says now no longer matters for this call: its decision was read with its message.
        try TempState.execute("UPDATE skill_calls SET status = 'failed', error_kind = 'timeout'", on: state.databasePath)
        let again = RecordedCall(
            ToolCallRequest(
                toolName: "notes_add", tool: RecordedAgentTests.addNote, arguments: .text(call.argumentsText), callID: "b",
                origin: .chat),
            arguments: arguments, sessionID: "s")
        guard case .replay(let result, let replayKey) = recorder.decision(for: again) else {
            Issue.record("expected a replay of the call read with the message")
            return
        }
        #expect(result == ["saved": "milk"])
        #expect(replayKey == key)
        // A call that was not planned with its message reads the database.
        let unplanned = RecordedCall(
            ToolCallRequest(
                toolName: "notes_add", tool: RecordedAgentTests.addNote, arguments: .text(call.argumentsText), callID: "c",
                origin: .chat),
            arguments: arguments, sessionID: "s")
        guard case .confirmRetry = recorder.decision(for: unplanned) else {
            Issue.record("expected the database's failed (timeout) call to ask first")
            return
        }
    }
}
