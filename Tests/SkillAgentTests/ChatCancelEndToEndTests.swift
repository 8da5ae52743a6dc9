import Foundation
import SkillJSON
import SkillStore
import Testing

@testable import SkillAgent

#if canImport(Glibc)
import Glibc
#endif

/// A turn stopped with Ctrl-C is recorded as cancelled: `skillhost debug` says `cancelled`, not `thinking`,
/// and a failed turn says `failed`.
@Suite(.serialized) struct ChatCancelEndToEndTests {
    @Test func ctrlCWhileTheModelThinksLeavesACancelledSession() async throws {
        var slow = ReplayServer.Response.raw("")
        slow.delay = 30
        let server = try ReplayServer([slow])
        defer { server.stop() }
        let root = NSTemporaryDirectory() + "skillhost-cancel-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var environment = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "SKILLHOST_PROVIDER", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"] { environment[key] = nil }
        environment["SKILLHOST_PLUGINS"] = root + "/plugins"
        environment["SKILLHOST_REGISTRY"] = root + "/registry.json"
        environment["SKILLHOST_CACHE"] = root + "/cache"
        environment["SKILLHOST_STATE"] = root + "/state"
        environment["XDG_DATA_HOME"] = root + "/data"

        let chat = Process()
        chat.executableURL = URL(fileURLWithPath: HostEndToEndTests.packageRoot + "/.build/debug/skillhost")
        chat.arguments = ["chat", "--base-url", "http://127.0.0.1:\(server.port)/v1", "--model", "slow", "hello there"]
        chat.environment = environment
        chat.standardInput = FileHandle.nullDevice
        chat.standardOutput = FileHandle.nullDevice
        chat.standardError = FileHandle.nullDevice
        try chat.run()
        let deadline = Date().addingTimeInterval(20)
        while server.requests.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!server.requests.isEmpty, "the model was never asked")
        kill(chat.processIdentifier, SIGINT)
        chat.waitUntilExit()
        #expect(chat.terminationStatus == 130)

        let debug = Process()
        debug.executableURL = chat.executableURL
        debug.arguments = ["debug", "--json"]
        debug.environment = environment
        let output = Pipe()
        debug.standardOutput = output
        debug.standardError = FileHandle.nullDevice
        try debug.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        debug.waitUntilExit()
        let json = try JSONValue(parsing: Array(data))
        #expect(json["last_session"]?["state"] == "cancelled", "\(String(decoding: data, as: UTF8.self))")
    }

    @Test func theStoredMessagesSayHowTheLastTurnEnded() {
        let user = MessageRecord(position: 0, role: "user", content: "hello")
        func state(_ last: String) -> String {
            SessionSnapshot.state(messages: [user, MessageRecord(position: 1, role: "assistant", content: last)], calls: [])
        }
        #expect(state(AgentConfiguration.cancelledNote) == "cancelled")
        #expect(state(AgentConfiguration.failedNotePrefix + "openai: cannot reach the server)") == "failed")
        #expect(state("Hello!") == "finished")
        #expect(SessionSnapshot.state(messages: [user], calls: []) == "thinking")
    }
}
