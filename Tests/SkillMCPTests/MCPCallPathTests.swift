import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import SkillMCP
import Synchronization
import Testing

/// The per-call path under pipelined load: a quick call is answered on the thread that received it, and
/// the host's call batches (``SkillHost/beginCallBatch()``, one look at the files per read of the server)
/// still apply every `disable`, trust change and permission change made before a request arrived.
@Suite(.serialized) struct MCPCallPathTests {
    @Test func aQuickCallIsAnsweredBeforeReceiveReturns() throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("p.echo")]), sent: sent)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"p.echo","arguments":{"n":7}}}"#)
        // No thread hand-off: the answer was sent by the time `receive` returned.
        let answer = try #require(sent.messages.first { $0["id"] == .int(7) })
        #expect(answer["result"]?["structuredContent"]?["n"] == .int(7))
    }

    @Test func aCallThatMustWaitDoesNotHoldUpTheReceivingThread() async throws {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([MCPTestSupport.tool("p.slow"), MCPTestSupport.tool("p.echo")]), sent: sent)
        MCPTestSupport.handshake(server)
        let started = ContinuousClock.now
        server.receive(#"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"p.slow","arguments":{}}}"#)
        #expect(ContinuousClock.now - started < .seconds(5))  // the slow call suspended; receive returned
        server.receive(#"{"jsonrpc":"2.0","id":"fast","method":"tools/call","params":{"name":"p.echo","arguments":{}}}"#)
        #expect(sent.messages.contains { $0["id"] == "fast" })
        server.receive(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}"#)
        await server.finish()
        #expect(!sent.messages.contains { $0["id"] == "slow" })  // cancelled after its task was registered
    }

    /// A host over the C fixture plugin, trusted, in a fresh folder.
    static func trustedHost() throws -> SkillHost {
        let host = try HostApprovalTests.host(registry: nil)
        _ = try host.trust(pluginID: "fixture")
        return host
    }

    static func echo(_ host: SkillHost) async throws(HostError) -> JSONValue {
        try await host.invoke(skillID: "fixture.echo", arguments: ["text": "hi"])
    }

    @Test func aServerThatPollsRepliesLetsEachWorkerTakeAQueueOfCalls() throws {
        let host = try Self.trustedHost()
        var backend = HostSkillBackend(host: host)
        let alone = try #require(try backend.callLimits()["fixture.echo"])
        backend.queuesCalls = true
        let queued = try #require(try backend.callLimits()["fixture.echo"])
        #expect(alone.limit == 2)  // max_workers
        #expect(queued.limit == 2 * WorkerPoolConfiguration.defaultQueueDepth)
        #expect(queued.group == alone.group)
    }

    @Test func aDisableBeforeTheBatchBeganRefusesTheCall() async throws {
        let host = try Self.trustedHost()
        host.beginCallBatch()
        #expect(try await Self.echo(host)["echo"]?["text"] == "hi")
        // Another process disables the skill; then the server reads the next request.
        let other = SkillHost(paths: host.paths, helperExecutable: host.helperExecutable)
        try other.setEnabled(["fixture.echo"], false)
        host.beginCallBatch()
        let error = await #expect(throws: HostError.self) { try await Self.echo(host) }
        #expect(error?.kind == .disabled, "\(String(describing: error))")
        try other.setEnabled(["fixture.echo"], true)
        host.beginCallBatch()
        #expect(try await Self.echo(host)["echo"]?["text"] == "hi")
        await host.shutdown()
    }

    @Test func aPluginFileChangedAfterTrustIsRefusedInTheNextBatch() async throws {
        let host = try Self.trustedHost()
        host.beginCallBatch()
        _ = try await Self.echo(host)
        let path = host.paths.plugins + "/fixture.so"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        host.beginCallBatch()
        let error = await #expect(throws: HostError.self) { try await Self.echo(host) }
        #expect(error?.kind == .denied, "\(String(describing: error))")
        #expect(error?.message.contains("changed since it was trusted") == true, "\(String(describing: error))")
        await host.shutdown()
    }

    @Test func aPluginFileMadeWritableByOthersIsRefusedInTheNextBatch() async throws {
        let host = try Self.trustedHost()
        host.beginCallBatch()
        _ = try await Self.echo(host)
        let path = host.paths.plugins + "/fixture.so"
        #expect(chmod(path, 0o775) == 0)
        host.beginCallBatch()
        let error = await #expect(throws: HostError.self) { try await Self.echo(host) }
        #expect(error?.kind == .denied, "\(String(describing: error))")
        #expect(error?.message.contains("chmod go-w") == true, "\(String(describing: error))")
        #expect(chmod(path, 0o755) == 0)
        host.beginCallBatch()
        _ = try await Self.echo(host)  // fixed: runs again
        await host.shutdown()
    }

    @Test func withoutBatchesEveryCallLooksAtTheFiles() async throws {
        let host = try Self.trustedHost()
        _ = try await Self.echo(host)
        let other = SkillHost(paths: host.paths, helperExecutable: host.helperExecutable)
        try other.setEnabled(["fixture.echo"], false)
        let error = await #expect(throws: HostError.self) { try await Self.echo(host) }
        #expect(error?.kind == .disabled, "\(String(describing: error))")
        await host.shutdown()
    }
}

/// The response line built without intermediate objects is byte for byte the one built from the result
/// object, for every shape of result.
@Suite struct MCPResponseLineTests {
    static let results: [JSONValue] = [
        ["text": "hello"],
        ["quote": "say \"hi\"\n\tback\\slash \u{1} é ✓ 😀", "n": 1.5, "list": [1, "two", nil, true], "nested": ["a": [:]]],
        [1, 2, 3],
        "just a string with \"quotes\"",
        .int(42),
        nil,
        [:],
    ]

    @Test(arguments: results)
    func theLineIsTheResultObjectSerialized(_ result: JSONValue) {
        for tool in [MCPTestSupport.tool("p.echo"), MCPTestSupport.tool("p.echo", summary: "You said {text}.")] {
            for id: JSONValue in [.int(7), "req-\"1\""] {
                let line = MCPToolResult.responseLine(id: id, success: result, tool: tool)
                let expected = JSONRPCMessage.responseLine(id: id, result: MCPToolResult.success(result, tool: tool))
                #expect(line == expected)
            }
        }
    }
}

/// The limit on calls in flight blocks the reader when full and wakes it once half the places are free.
@Suite struct MCPInFlightLimitTests {
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    @Test func aFullLimitBlocksUntilHalfThePlacesAreFree() async throws {
        let limit = MCPInFlightLimit(maximum: 4)
        for _ in 0..<4 { limit.enter() }
        let entered = Flag()
        let thread = Thread {
            limit.enter()
            entered.set()
        }
        thread.start()
        try await Task.sleep(for: .milliseconds(50))
        #expect(!entered.isSet)
        limit.leave()  // 3 running: more than half, still blocked
        try await Task.sleep(for: .milliseconds(100))
        #expect(!entered.isSet)
        limit.leave()  // 2 running: half, the waiter takes a place
        for _ in 0..<400 where !entered.isSet { try await Task.sleep(for: .milliseconds(5)) }
        #expect(entered.isSet)
        #expect(limit.running == 3)
    }

    @Test func aReaderThatDoesNotBlockIsToldToPauseUntilHalfThePlacesAreFree() {
        let limit = MCPInFlightLimit(maximum: 4)
        for _ in 0..<3 { limit.enterWithoutWaiting() }
        #expect(!limit.pausesInput())
        for _ in 0..<3 { limit.enterWithoutWaiting() }  // a chunk of input may overshoot
        #expect(limit.pausesInput())
        limit.leave()
        limit.leave()
        limit.leave()
        #expect(limit.pausesInput())  // 3 running: still paused
        limit.leave()
        #expect(!limit.pausesInput())  // 2 running: read again
        #expect(limit.running == 2)
    }
}

/// `skillhost mcp` itself (its read loop runs the calls and polls the workers' replies) under a pipelined
/// burst through a real worker: every call is answered once with its own result, a cancelled slow call is
/// never answered and does not hold up the end of the run.
@Suite(.serialized) struct MCPReadLoopTests {
    @Test func aPipelinedBurstWithACancelledSlowCallIsAnsweredInFull() throws {
        let host = try HostApprovalTests.host(registry: nil)
        let binary = host.helperExecutable
        let initialize = #"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#
        var lines = [initialize, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]
        lines.append(#"{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"fixture.slow","arguments":{}}}"#)
        for id in 0..<300 {
            lines.append(#"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"fixture.echo","arguments":{"count":\#(id)}}}"#)
        }
        lines.append(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}"#)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["mcp", "--plugins", host.paths.plugins, "--registry", host.paths.registry, "--cache", host.paths.cache]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_DATA_HOME": host.paths.data, "SKILLHOST_STATE": host.paths.data + "/state"]) { $1 }
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started = ContinuousClock.now
        try process.run()
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(ContinuousClock.now - started < .seconds(4.5))  // the slow call (limit 5 s) was stopped
        let answers = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { try? JSONValue(parsing: Array($0.utf8)) }
        let calls = answers.filter { $0["id"]?.intValue != nil }
        #expect(calls.count == 300)
        #expect(Set(calls.compactMap { $0["id"]?.intValue }).count == 300)
        #expect(calls.allSatisfy { $0["result"]?["structuredContent"]?["echo"]?["count"] == $0["id"] }, "\(calls.prefix(2))")
        #expect(!answers.contains { $0["id"] == "slow" })
    }
}
