import Foundation
import Glibc
import SkillJSON
import SkillStore
import Testing

/// Real `skillhost chat` processes over one history file: a crash (SIGKILL) between two skill calls, a
/// resume that hands the context on, and two processes writing at once.
@Suite(.serialized) struct SessionProcessTests {
    /// The JSON events of a `chat --json` run.
    static func events(_ run: CLI.Run) throws -> [JSONValue] {
        try run.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    static func sessionID(_ stderr: String) -> String? {
        stderr.firstMatch(of: /new session ([0-9a-f-]{36})/).map { String($0.1) }
    }

    @Test func resumeAfterACrashBetweenTwoSkillCalls() throws {
        let root = try CLI.rootWithFixture()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state"
        let (process, output, errors) = try CLI.start(
            ["chat", "--offline", "--json", "--state", state, "echo something, then slow something"], root: root)
        // Wait until the second call is recorded as asked for (its assistant message, stored before the call
        // runs, names its skill and key; its row is written when it finishes), then kill the process the hard way.
        let store = try waitForStore(state + "/" + HistoryStore.fileName)
        var asked = false
        for _ in 0..<300 where !asked {
            if let session = try store.latestSession() {
                asked = try store.messages(session: session.id).contains {
                    $0.role == "assistant" && ($0.toolCallsJSON ?? "").contains(#""skill_id":"fixture.slow""#)
                }
            }
            if !asked { usleep(20_000) }
        }
        #expect(asked, "the fixture.slow call was stored with its assistant message")
        usleep(100_000)  // let it start running
        // The whole process tree dies at once (as under the OOM killer): the chat and its worker child,
        // which would otherwise keep the output pipes open.
        let children = Self.children(of: process.processIdentifier)
        kill(process.processIdentifier, SIGKILL)
        for child in children { kill(child, SIGKILL) }
        let crashed = CLI.finish(process, output, errors)
        #expect(crashed.status == SIGKILL)
        let sessionID = try #require(Self.sessionID(crashed.stderr), "chat printed the new session id: \(crashed.stderr)")

        // Nothing done before the crash is lost.
        let before = try store.calls(matching: TraceFilter(sessionID: sessionID)).reversed().map { ($0.skillID, $0.status) }
        #expect(before.map(\.0) == ["fixture.echo"])
        #expect(before.map(\.1) == [.succeeded])
        let view = try JSONValue(parsing: try CLI.run(["debug", "--json", "--state", state], root: root).stdout)
        #expect(view["last_session"]?["state"] == "executingSkill", "the unanswered call shows as running until a resume")
        // The finished call names the worker that ran it: a child of the chat (workers outlive their calls).
        let echoWorker = try store.calls(matching: TraceFilter(sessionID: sessionID)).last?.workerPID
        #expect(echoWorker.map { children.contains(Int32($0)) } == true, "worker pid \(String(describing: echoWorker)) among \(children)")
        let messages = try store.messages(session: sessionID)
        #expect(messages.first?.content == "echo something, then slow something")
        #expect(messages.contains { $0.role == "tool" }, "the echo call's tool message was stored")

        // The resume marks the unfinished call and goes on.
        let resumed = try CLI.run(["chat", "--offline", "--json", "--state", state, "--session", sessionID, "echo something"], root: root)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("1 call(s) left unfinished by the last run are marked interrupted"))
        let after = try store.calls(matching: TraceFilter(sessionID: sessionID)).reversed().map(\.status)
        #expect(after == [.succeeded, .interrupted, .succeeded])
        let transcript = try CLI.run(["history", sessionID, "--state", state], root: root)
        #expect(transcript.stdout.contains("[interrupted] fixture.slow"))
        #expect(transcript.stdout.contains("[ok] fixture.echo"))
        let failed = try CLI.run(["trace", "--failed", "--json", "--state", state], root: root)
        #expect(try JSONValue(parsing: failed.stdout).arrayValue?.first?["status"] == "interrupted")
    }

    @Test func workerPIDIsRecordedOnlyForCallsThatRanInAWorker() throws {
        let root = try CLI.rootWithFixture()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state"
        // Two calls in one process (isolation "process", the default): one worker serves both.
        let worker = try CLI.run(["chat", "--offline", "--state", state], root: root, stdin: "echo one\necho two\n")
        #expect(worker.status == 0, "\(worker.stderr)")
        let store = try HistoryStore(path: state + "/" + HistoryStore.fileName)
        let pids = try store.calls(matching: TraceFilter()).map(\.workerPID)
        #expect(pids.count == 2)
        #expect(pids.allSatisfy { $0 != nil && $0! > 0 }, "\(pids)")
        #expect(Set(pids).count == 1, "the idle worker served the second call too: \(pids)")

        // In-process calls have no worker: the column stays null.
        try #"{"version": 1, "plugins": {"fixture": {"isolation": "inprocess"}}}"#
            .write(toFile: root + "/skill_registry.json", atomically: true, encoding: .utf8)
        let inProcess = try CLI.run(["chat", "--offline", "--state", state, "echo three"], root: root)
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        let latest = try #require(try store.calls(matching: TraceFilter(limit: 1)).first)
        #expect(latest.status == .succeeded)
        #expect(latest.workerPID == nil)
    }

    @Test func contextIsHandedToTheNextSkillAcrossAResume() throws {
        let root = try CLI.rootWithFixture()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state"
        // fixture.context stores its arguments under "last" and returns what "last" held before.
        let first = try CLI.run(["chat", "--offline", "--json", "--state", state, "context something"], root: root)
        #expect(first.status == 0, "\(first.stderr)")
        let firstResult = try Self.events(first).first { $0["event"] == "skillSucceeded" }?["result"]
        #expect(firstResult == .null, "nothing stored yet")
        let sessionID = try #require(Self.sessionID(first.stderr))

        let second = try CLI.run(["chat", "--offline", "--json", "--state", state, "--continue", "context something"], root: root)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("resuming session \(sessionID)"))
        let secondResult = try Self.events(second).first { $0["event"] == "skillSucceeded" }?["result"]
        #expect(secondResult != nil && secondResult != .null, "the value the first process stored came back")
        let debug = try CLI.run(["debug", "--json", "--state", state], root: root)
        let view = try JSONValue(parsing: debug.stdout)
        #expect(view["last_session"]?["context_keys"] == ["last"])
        #expect(view["last_session"]?["state"] == "finished")
        #expect((view["trace"]?.arrayValue?.count ?? 0) == 2)
    }

    @Test func twoProcessesWritingAtOnceLoseNothing() throws {
        let root = try CLI.rootWithFixture()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state"
        let turns = 12
        let lines = String(repeating: "echo something\n", count: turns)
        let a = try CLI.start(["chat", "--offline", "--state", state], root: root, stdin: lines)
        let b = try CLI.start(["chat", "--offline", "--state", state], root: root, stdin: lines)
        let runs = [CLI.finish(a.0, a.1, a.2), CLI.finish(b.0, b.1, b.2)]
        for run in runs {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(!run.stderr.contains("busy") && !run.stderr.contains("locked"), "\(run.stderr)")
        }
        let store = try HistoryStore(path: state + "/" + HistoryStore.fileName)
        let sessions = try store.sessions()
        #expect(sessions.count == 2)
        for session in sessions {
            let messages = try store.messages(session: session.id)
            #expect(messages.filter { $0.role == "user" }.count == turns)
            #expect(session.callCount == turns)
        }
        #expect(try store.calls(matching: TraceFilter(limit: 1000)).allSatisfy { $0.status == .succeeded })
    }

    /// The direct children of `pid` (from /proc).
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Opens the history once the child has created it.
    private func waitForStore(_ path: String) throws -> HistoryStore {
        for _ in 0..<500 {
            if FileManager.default.fileExists(atPath: path), let store = try? HistoryStore(path: path) { return store }
            usleep(20_000)
        }
        return try HistoryStore(path: path)
    }
}
