import Foundation
import Testing

@testable import SkillAgent

/// README's `skillhost chat --continue "and tomorrow?"` through the real binary and calendar plugin: the
/// follow-up takes the last request's skill with the new day, and the answer names the event.
@Suite(.serialized) struct ChatContinueEndToEndTests {
    /// Runs `skillhost chat ARGUMENTS` against the setup's plugins, registry and a history of its own.
    static func chat(_ setup: CalendarScenarioTests.Setup, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HostEndToEndTests.packageRoot + "/.build/debug/skillhost")
        process.arguments = ["chat"] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "SKILLHOST_MODEL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SKILLHOST_PROVIDER"] {
            environment[key] = nil
        }
        environment["SKILLHOST_PLUGINS"] = setup.plugins
        environment["SKILLHOST_REGISTRY"] = setup.registry
        environment["SKILLHOST_CACHE"] = setup.root + "/cache"
        environment["XDG_DATA_HOME"] = setup.root + "/data"
        environment["SKILLHOST_STATE"] = setup.root + "/state"
        environment["TZ"] = CalendarScenarioTests.zone
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, err)
    }

    @Test func andTomorrowContinuesTheLastRequestWithItsSkill() throws {
        let day = CalendarScenarioTests.tomorrow()
        let setup = try CalendarScenarioTests.Setup(busyDay: day)
        defer { setup.remove() }
        let first = try Self.chat(setup, ["what's on my calendar today?"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("[ok] calendar.list_events"), "\(first.out)")
        let next = try Self.chat(setup, ["--continue", "and tomorrow?"])
        #expect(next.status == 0, "\(next.err)")
        #expect(next.err.contains("resuming session"), "\(next.err)")
        #expect(next.out.contains("[ok] calendar.list_events: 1 event between \(day)T00:00:00"), "\(next.out)")
        // The answer says what the day holds, not only how many.
        #expect(next.out.contains("  - Standup — ") && next.out.contains("\(day) 09:00–09:30"), "\(next.out)")
    }
}
