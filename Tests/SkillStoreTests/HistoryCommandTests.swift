import Foundation
import SkillJSON
import SkillStore
import Testing

/// `skillhost history`, `trace` and `debug` over a database the test fills directly.
@Suite struct HistoryCommandTests {
    static func filledState() throws -> TempState {
        let state = TempState()
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "one", model: "offline")
        try store.appendMessages(
            [MessageRecord(role: "user", content: "what time is it"),
             MessageRecord(role: "assistant", content: "", toolCallsJSON: #"[{"id":"c1","name":"clock_now","arguments":"{}"}]"#)],
            session: "one")
        let row = try store.startCall(
            CallRecord(callID: "c1", sessionID: "one", skillID: "clock.now", argumentsJSON: "{}", status: .started, startedMilliseconds: store.now()))
        try store.finishCall(row, with: CallOutcome(status: .succeeded, resultJSON: #"{"time":"12:00"}"#, summary: "It is 12:00.", durationMilliseconds: 4.5))
        try store.appendMessages([MessageRecord(role: "tool", content: "{}", toolCallID: "c1"), MessageRecord(role: "assistant", content: "It is noon.")], session: "one")
        return state
    }

    @Test func listShowAndDeleteSessions() throws {
        let state = try Self.filledState()
        let list = try CLI.run(["history", "--json", "--state", state.directory])
        #expect(list.status == 0, "\(list.stderr)")
        let sessions = try #require(try JSONValue(parsing: list.stdout).arrayValue)
        #expect(sessions.map { $0["id"] } == ["one"])
        #expect(sessions.first?["title"] == "what time is it")
        #expect(sessions.first?["messages"] == 4)
        #expect(sessions.first?["calls"] == 1)

        // One call, in the singular (it said "1 calls"); more than one in the plural.
        let listed = try CLI.run(["history", "--state", state.directory])
        #expect(listed.stdout.contains("  4 messages, 1 call  what time is it\n"), "\(listed.stdout)")
        let debug = try CLI.run(["debug", "--state", state.directory])
        #expect(debug.stdout.contains("\nlast call:\n"), "\(debug.stdout)")

        let show = try CLI.run(["history", "one", "--state", state.directory])
        #expect(show.stdout.contains("user: what time is it\n  [ok] clock.now: It is 12:00. (4.5 ms)\nassistant: It is noon."))
        let shown = try JSONValue(parsing: try CLI.run(["history", "one", "--json", "--state", state.directory]).stdout)
        #expect(shown["calls"]?.arrayValue?.first?["duration_ms"] == 4.5)
        #expect(shown["messages"]?.arrayValue?.count == 4)

        let missing = try CLI.run(["history", "nope", "--state", state.directory])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("no session \"nope\""))

        let deleted = try CLI.run(["history", "--delete", "one", "--state", state.directory])
        #expect(deleted.status == 0)
        #expect(deleted.stdout == "deleted session one\n")
        #expect(try CLI.run(["history", "--delete", "one", "--state", state.directory]).status == 3)
        #expect(try CLI.run(["trace", "--json", "--state", state.directory]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func traceFiltersAndRejectsBadSince() throws {
        let state = try Self.filledState()
        let all = try CLI.run(["trace", "--skill", "CLOCK.now", "--state", state.directory])
        #expect(all.stdout.contains("succeeded   clock.now [chat]  4.5 ms  It is 12:00."))
        #expect(try CLI.run(["trace", "--failed", "--state", state.directory]).stdout == "no recorded calls match\n")
        let bad = try CLI.run(["trace", "--since", "yesterday", "--state", state.directory])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--since needs a number and a unit"))
    }

    @Test func corruptDatabaseGivesOneClearLineAndStaysUntouched() throws {
        let state = TempState()
        let garbage = Data(String(repeating: "not a database ", count: 300).utf8)
        try #require(FileManager.default.createFile(atPath: state.databasePath, contents: garbage))
        for command in [["history"], ["trace"], ["debug"], ["chat", "--offline", "hello"]] {
            let run = try CLI.run(command + ["--state", state.directory])
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("is not a readable SkillHost history database"), "\(command): \(run.stderr)")
            #expect(run.stderr.contains("left untouched"))
        }
        #expect(TempState.bytes(state.databasePath) == garbage)
    }

    @Test func retentionFlagsApplyOnStart() throws {
        let state = try Self.filledState()
        let bad = try CLI.run(["history", "--keep-sessions", "-1", "--state", state.directory])
        #expect(bad.status == 2)
        let kept = try CLI.run(["history", "--json", "--keep-sessions", "0", "--state", state.directory])
        #expect(try JSONValue(parsing: kept.stdout).arrayValue?.count == 1, "0 keeps everything")
        let store = try HistoryStore(path: state.databasePath)
        try store.createSession(id: "two")
        let trimmed = try CLI.run(["history", "--json", "--keep-sessions", "1", "--state", state.directory])
        #expect(try JSONValue(parsing: trimmed.stdout).arrayValue?.map { $0["id"] } == ["two"])
    }
}
