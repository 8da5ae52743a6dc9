import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillStore
import Synchronization
import Testing

/// Every call through ``ToolCaller`` is recorded, whichever front end made it, with the front end (and its
/// client) in the row; a refused call is `refused`, not a failure; the time a person took is not a call's.
@Suite struct CallRecordingTests {
    static func folder() throws -> String {
        let folder = TestPackage.temporaryDirectory("skillcalls-recording")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static let echo = ToolCallerTests.tool("text.echo")
    static let write = ToolCallerTests.tool("notes.add", permission: .write)

    static func backend() -> MemoryBackend {
        MemoryBackend([
            MemoryBackend.Skill(tool: echo) { arguments, _ in arguments },
            MemoryBackend.Skill(tool: write) { _, _ in
                try await Task.sleep(for: .milliseconds(20))
                return ["saved": true]
            },
        ])
    }

    @Test func aServersCallsAreRowsOfItsSessionWithItsClient() async throws {
        let store = try HistoryStore(directory: try Self.folder())
        let recorder = StoreCallRecorder(store: store, sessionID: "mcp-1", context: SessionContext(), writesRowsAtFinish: true)
        let caller = ToolCaller(
            backend: Self.backend(), approval: ToolCallerTests.person(after: 2.5, says: true), recorder: recorder, sessionID: "mcp-1")
        let origin = CallOrigin.mcp(client: "Claude Desktop")
        _ = await caller.call(ToolCallerTests.request(Self.echo, .value(["text": "hi"]), origin: origin))
        _ = await caller.call(ToolCallerTests.request(Self.write, .value(["text": "milk"]), origin: origin))
        recorder.flush()
        let calls = try store.calls(matching: TraceFilter(sessionID: "mcp-1"))
        #expect(calls.count == 2)
        #expect(calls.allSatisfy { $0.frontEnd == "mcp" && $0.client == "Claude Desktop" && $0.status == .succeeded })
        #expect(calls.contains { $0.argumentsJSON == #"{"text":"hi"}"# })
        let written = try #require(calls.first { $0.skillID == "notes.add" })
        #expect((written.durationMilliseconds ?? 0) < 2000, "the 2.5 s of approval are not the call's: \(written.durationMilliseconds ?? -1) ms")
        let session = try #require(try store.session(id: "mcp-1"))
        #expect(session.title == "mcp: Claude Desktop")
        #expect(session.callCount == 2)
    }

    @Test func aRefusedCallIsRecordedAsRefusedAndIsNotAFailure() async throws {
        let store = try HistoryStore(directory: try Self.folder())
        let recorder = StoreCallRecorder(store: store, sessionID: "mcp-2", context: SessionContext(), writesRowsAtFinish: true)
        let caller = ToolCaller(backend: Self.backend(), approval: ToolCallerTests.person(after: 0.3, says: false), recorder: recorder, sessionID: "mcp-2")
        let outcome = await caller.call(ToolCallerTests.request(Self.write, .value(["text": "milk"]), origin: .mcp(client: nil)))
        #expect(outcome.refused)
        _ = await caller.call(ToolCallerTests.request(Self.write, .value(["text": "bread"]), origin: .mcp(client: nil)))
        recorder.flush()
        let calls = try store.calls(matching: TraceFilter(sessionID: "mcp-2"))
        #expect(calls.map(\.status) == [.refused, .refused])
        #expect(calls.allSatisfy { $0.errorKind == "denied" && $0.durationMilliseconds == nil })
        let stats = try store.stats(skillID: "notes.add")
        #expect(stats.calls == 2)
        #expect(stats.failures == 0)
        #expect(stats.p50Milliseconds == nil)
    }

    @Test func aOneShotProcessLeavesItsCallForTheNextOpener() async throws {
        let folder = try Self.folder()
        // Eight processes' worth of recorders at once, each leaving its call without opening the database.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let caller = ToolCaller(backend: Self.backend(), recorder: DetachedCallRecorder(directory: folder))
                    var request = ToolCallerTests.request(Self.echo, .value(["text": .string("n\(index)")]))
                    request.callID = UUID().uuidString  // as `skillhost call` gives each call
                    _ = await caller.call(request)
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/history.sqlite3"), "nothing opened the database")
        let store = try HistoryStore(directory: folder)
        let calls = try store.calls(matching: TraceFilter(limit: 100))
        #expect(calls.count == 8)
        #expect(Set(calls.map(\.argumentsJSON)) == Set((0..<8).map { #"{"text":"n\#($0)"}"# }))
        #expect(calls.allSatisfy { $0.frontEnd == "call" && $0.sessionID.hasPrefix("call-") && $0.status == .succeeded })
        let session = try #require(try store.session(id: calls[0].sessionID))
        #expect(session.title.hasPrefix("skillhost call, "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("-finishes-") }.isEmpty)
    }

    @Test func aScriptThatOnlyCallsDoesNotPileLogsUp() async throws {
        let folder = try Self.folder()
        let caller = ToolCaller(backend: Self.backend(), recorder: DetachedCallRecorder(directory: folder))
        for index in 0..<(HistoryStore.leftFinishesCommitted + 5) {
            var request = ToolCallerTests.request(Self.echo, .value(["text": .string("n\(index)")]))
            request.callID = "call-\(index)"
            _ = await caller.call(request)
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("-finishes-") }
        #expect(logs.count < HistoryStore.leftFinishesCommitted, "\(logs.count) logs were left")
        let store = try HistoryStore(directory: folder)
        #expect(try store.calls(matching: TraceFilter(limit: 1000)).count == HistoryStore.leftFinishesCommitted + 5)
    }

    @Test func theAgentsCallsAreChats() async throws {
        let store = try HistoryStore(directory: try Self.folder())
        try store.createSession(id: "s")
        let recorder = StoreCallRecorder(store: store, sessionID: "s", context: SessionContext())
        let caller = ToolCaller(backend: Self.backend(), recorder: recorder, sessionID: "s")
        _ = await caller.call(ToolCallerTests.request(Self.echo, .text(#"{"text":"a"}"#), origin: .chat))
        try store.flushFinishes()
        let call = try #require(try store.calls(matching: TraceFilter(sessionID: "s")).first)
        #expect(call.frontEnd == "chat" && call.client == nil)
        #expect(call.idempotencyKey == IdempotencyKey.make(sessionID: "s", skillID: "text.echo", arguments: ["text": "a"]))
    }
}
