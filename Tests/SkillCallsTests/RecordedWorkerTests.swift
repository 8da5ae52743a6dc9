import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import Testing

/// A recorded call's row names the worker process that ran it (`worker_pid`): ``ToolCaller`` hands the
/// attribution to the host with the call's options, and the worker executor fills it in.
@Suite struct RecordedWorkerTests {
    @Test func aServersRowNamesTheWorkerThatRanTheCall() async throws {
        // The fixture plugin in its default isolation: worker processes.
        let (host, root) = try HostTestSupport.fixtureHost(registry: #"{"version": 1}"#)
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try host.trust(pluginID: "fixture")
        let store = try HistoryStore(directory: root + "/state")
        let recorder = StoreCallRecorder(store: store, sessionID: "mcp-1", context: SessionContext(), writesRowsAtFinish: true)
        let backend = HostSkillBackend(host: host)
        let tool = try #require(try backend.tools().first { $0.id == "fixture.echo" })
        let caller = ToolCaller(backend: backend, recorder: recorder, sessionID: "mcp-1", forwardsCallIDs: true)
        let outcome = await caller.call(ToolCallRequest(
            toolName: tool.id, tool: tool, arguments: .value(["text": "hi"]), callID: "mcp-1-1", origin: .mcp(client: "test")))
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        recorder.flush()
        await host.shutdown()
        let row = try #require(try store.calls(matching: TraceFilter(sessionID: "mcp-1")).first)
        let pid = try #require(row.workerPID)
        #expect(pid > 0 && pid != Int64(getpid()))
    }
}
