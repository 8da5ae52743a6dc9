import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// A server's life within one process (issue #35): started on first use and kept (one process for many
/// calls), a crash fails the running call with how it ended, the next call starts it again after a back-off,
/// and five crashes in a row mark it broken; `close()` kills it.
@Suite(.serialized) struct MCPServerSessionTests {
    func session() throws -> MCPServerSession {
        let root = HostTestSupport.temporaryDirectory()
        let script = TestPackage.root + "/Tests/Peers/mcp_attack_server.py"
        let entry = MCPServerEntry(name: "evil", transport: .stdio(command: script, arguments: [root + "/key", "1", root + "/out"]))
        let paths = HostPaths(plugins: root + "/plugins", registry: root + "/registry.json", cache: root + "/cache", data: root + "/data")
        let launcher = MCPServerLauncher(hostExecutable: try TestPackage.skillhostBinary(), paths: paths)
        return MCPServerSession(entry: entry, launcher: launcher, crashPolicy: CrashPolicy(maximumConsecutiveCrashes: 3, initialBackoff: 0.05, maximumBackoff: 0.2))
    }

    @Test func keptRestartedAndBroken() async throws {
        let session = try session()
        defer { session.close() }
        let tools = try await session.tools()
        #expect(tools.count == 7)
        // Kept: two calls on the running server.
        for _ in 0..<2 {
            let result = try await session.call(tool: "fail", arguments: [:], timeout: 10)
            #expect(result["isError"] == true)
        }
        // A crash fails the running call with the reason, and the next call runs on a new process.
        for attempt in 1...3 {
            let error = await #expect(throws: HostError.self) {
                _ = try await session.call(tool: "boom", arguments: [:], timeout: 10)
            }
            #expect(error?.kind == .pluginCrashed)
            #expect(error?.message.contains("exit status 3") == true, "\(String(describing: error?.message))")
            if attempt < 3 { #expect(session.brokenReason == nil) }
        }
        let broken = try #require(session.brokenReason)
        #expect(broken.contains("broken after 3 crashes in a row"), "\(broken)")
        let refused = await #expect(throws: HostError.self) { _ = try await session.call(tool: "fail", arguments: [:], timeout: 10) }
        #expect(refused?.message == broken)
    }

    @Test func aSuccessfulCallAfterACrashResetsTheCount() async throws {
        let session = try session()
        defer { session.close() }
        for _ in 0..<4 {
            _ = try? await session.call(tool: "boom", arguments: [:], timeout: 10)
            _ = try await session.call(tool: "fail", arguments: [:], timeout: 10)
        }
        #expect(session.brokenReason == nil)
    }

    @Test func progressResetsTheTimeoutAndAHangTimesOut() async throws {
        let session = try session()
        defer { session.close() }
        // 1.5 s of work with a 1 s limit: each progress report (every 0.3 s) starts the clock again.
        let slow = try await session.call(tool: "slow", arguments: [:], timeout: 1)
        #expect(slow["content"]?.arrayValue?.first?["text"] == "done")
        let started = Posix.monotonicSeconds()
        let hung = await #expect(throws: HostError.self) { _ = try await session.call(tool: "hang", arguments: [:], timeout: 0.5) }
        #expect(hung?.kind == .timeout)
        #expect(hung?.message.contains("did not answer tools/call within") == true, "\(String(describing: hung?.message))")
        #expect(Posix.monotonicSeconds() - started < 3)
        #expect(session.brokenReason == nil, "a timeout is not a crash")
    }

    @Test func listChangedRefreshesTheCachedTools() async throws {
        let session = try session()
        defer { session.close() }
        #expect(try await session.tools().count == 7)
        _ = try await session.call(tool: "change", arguments: [:], timeout: 5)
        var names: [String] = []
        for _ in 0..<50 {
            names = try await session.tools().compactMap { $0["name"]?.stringValue }
            if names.contains("added") { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(names.contains("added"), "\(names)")
    }
}
