import Foundation
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// A stdio MCP server's answers to calls made from a loop that collects replies (``CallReplyPoller``:
/// `skillhost mcp`, issue #35's gateway row): the loop reads the answer itself between its other work, with
/// no hand-off from the connection's reading thread; the deadline (restarted by progress) still fails a
/// call and tells the server it was cancelled, with no watcher task.
@Suite(.serialized) struct MCPClientReplyPollingTests {
    /// A started, initialized connection to the test peer that misbehaves on request.
    func connection() async throws -> MCPClientConnection {
        let root = MCPTestSupport.temporaryDirectory()
        let script = TestPackage.root + "/Tests/Peers/mcp_attack_server.py"
        let entry = MCPServerEntry(name: "peer", transport: .stdio(command: script, arguments: [root + "/key", "1", root + "/out"]))
        let paths = HostPaths(plugins: root + "/plugins", registry: root + "/registry.json", cache: root + "/cache", data: root + "/data")
        let connection = try MCPServerLauncher(hostExecutable: try TestPackage.skillhostBinary(), paths: paths).start(entry)
        _ = try await connection.request("initialize", params: [
            "protocolVersion": "2025-11-25", "capabilities": [:], "clientInfo": ["name": "test", "version": "1"],
        ], timeout: 30)
        return connection
    }

    /// Runs `body` as a call of `loop` runs: on its thread, its replies collected there.
    func onLoop<T: Sendable>(_ loop: MCPCallLoop, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let executor = try #require(loop.executor)
        let poller = loop.replyPoller
        return try await Task(executorPreference: executor) {
            try await CallReplyPoller.$current.withValue(poller) { try await body() }
        }.value
    }

    @Test func theLoopReadsTheAnswersOfItsCalls() async throws {
        let loop = MCPCallLoop()
        defer { loop.stop() }
        let connection = try await connection()
        defer { connection.close() }
        let results = try await onLoop(loop) {
            var results: [JSONValue] = []
            for _ in 0..<20 {
                results.append(try await connection.request("tools/call", params: ["name": "fail", "arguments": [:]], timeout: 10))
            }
            return results
        }
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0["isError"] == true })
        // The reading thread races for each answer; a loop that spins for it gets most of them.
        #expect(connection.answersReadByCallers.load(ordering: .relaxed) > 0)
    }

    @Test func aLateCallFailsAndIsCancelledWithNoWatcher() async throws {
        let loop = MCPCallLoop()
        defer { loop.stop() }
        let connection = try await connection()
        defer { connection.close() }
        let started = Posix.monotonicSeconds()
        let error = await #expect(throws: HostError.self) {
            _ = try await onLoop(loop) {
                try await connection.request("tools/call", params: ["name": "hang", "arguments": [:]], timeout: 0.3)
            }
        }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("did not answer tools/call within") == true, "\(String(describing: error?.message))")
        #expect(Posix.monotonicSeconds() - started < 3)
        // The server heard that the request was cancelled (sent from another thread: give it a moment).
        var ids: [JSONValue] = []
        for _ in 0..<50 {
            let answer = try await connection.request("tools/call", params: ["name": "cancelled", "arguments": [:]], timeout: 10)
            ids = answer["structuredContent"]?["ids"]?.arrayValue ?? []
            if !ids.isEmpty { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(ids.count == 1, "\(ids)")
    }

    @Test func progressRestartsTheClockOfACallFromTheLoop() async throws {
        let loop = MCPCallLoop()
        defer { loop.stop() }
        let connection = try await connection()
        defer { connection.close() }
        // 1.5 s of work with a 1 s limit: each progress report (every 0.3 s) starts the clock again.
        let result = try await onLoop(loop) {
            try await connection.request("tools/call", params: ["name": "slow", "arguments": [:]], timeout: 1)
        }
        #expect(result["content"]?.arrayValue?.first?["text"] == "done")
    }

    /// While a loop calls, the reading thread is parked (it sleeps on its wake-up alone): the server's end in
    /// the middle of a loop's call still fails it with how the server ended.
    @Test func aServerEndingDuringALoopsCallFailsIt() async throws {
        let loop = MCPCallLoop()
        defer { loop.stop() }
        let connection = try await connection()
        defer { connection.close() }
        let error = await #expect(throws: HostError.self) {
            _ = try await onLoop(loop) {
                for _ in 0..<5 { _ = try await connection.request("tools/call", params: ["name": "fail", "arguments": [:]], timeout: 10) }
                return try await connection.request("tools/call", params: ["name": "boom", "arguments": [:]], timeout: 10)
            }
        }
        #expect(error?.kind == .pluginCrashed)
        #expect(error?.message.contains("MCP server peer ended") == true, "\(String(describing: error?.message))")
        #expect(connection.hasEnded)
    }

    /// Once a loop's calls stop, the parked reading thread reads the output again: a server that ends between
    /// calls is seen to have ended, and a call made elsewhere (no loop) is answered.
    @Test func theReadingThreadReadsAgainWhenTheLoopStopsCalling() async throws {
        let loop = MCPCallLoop()
        defer { loop.stop() }
        let connection = try await connection()
        defer { connection.close() }
        _ = try await onLoop(loop) {
            for _ in 0..<5 { _ = try await connection.request("tools/call", params: ["name": "fail", "arguments": [:]], timeout: 10) }
        }
        let answer = try await connection.request("tools/call", params: ["name": "fail", "arguments": [:]], timeout: 10)
        #expect(answer["isError"] == true)
        _ = try await onLoop(loop) { try await connection.request("tools/call", params: ["name": "fail", "arguments": [:]], timeout: 10) }
        kill(connection.pid, SIGKILL)
        var ended = false
        for _ in 0..<250 where !ended {
            try await Task.sleep(nanoseconds: 20_000_000)
            ended = connection.hasEnded
        }
        #expect(ended)
    }
}
