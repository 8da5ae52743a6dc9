import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import Testing

@testable import SkillAgent

/// The product brief's scenario — "check tomorrow morning in my calendar for a free slot, then add a 10:00
/// workout reminder" — through the real calendar and reminders plugins (`.build/plugins/`), with the
/// offline planner (`skillhost chat --yes`) and with the scripted OpenAI-compatible server.
@Suite(.serialized) struct CalendarScenarioTests {
    static let request = "check tomorrow morning in my calendar for a free slot, then add a 10:00 workout reminder"
    static let zone = "Europe/Berlin"

    /// A folder with the calendar and reminders plugins, a registry pointing them at two files, and a
    /// calendar that is busy tomorrow from 09:00 to 09:30.
    struct Setup {
        let root: String
        var plugins: String { root + "/plugins" }
        var registry: String { root + "/skill_registry.json" }
        var calendar: String { root + "/files/calendar.ics" }
        var reminders: String { root + "/files/reminders.ics" }

        init(busyDay: String) throws {
            root = NSTemporaryDirectory() + "skillhost-scenario-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/files", withIntermediateDirectories: true)
            for name in ["calendar.so", "reminders.so"] {
                let built = HostEndToEndTests.packageRoot + "/.build/plugins/" + name
                guard FileManager.default.fileExists(atPath: built) else {
                    throw HostEndToEndTests.SetupError(description: "missing \(built): run scripts/build-plugins.sh")
                }
                try FileManager.default.copyItem(atPath: built, toPath: plugins + "/" + name)
            }
            let registry = """
                {"version": 1, "plugins": {
                  "calendar": {"config": {"calendar_file": "\(calendar)", "timezone": "\(zone)"}},
                  "reminders": {"config": {"reminders_file": "\(reminders)", "timezone": "\(zone)"}}}}
                """
            try registry.write(toFile: self.registry, atomically: true, encoding: .utf8)
            let compact = busyDay.replacingOccurrences(of: "-", with: "")
            let busy = [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:standup@example.com",
                "DTSTAMP:20261101T000000Z", "DTSTART;TZID=\(zone):\(compact)T090000",
                "DTEND;TZID=\(zone):\(compact)T093000", "SUMMARY:Standup", "END:VEVENT", "END:VCALENDAR", "",
            ].joined(separator: "\r\n")
            try busy.write(toFile: calendar, atomically: true, encoding: .utf8)
        }

        var host: SkillHost {
            SkillHost(
                paths: HostPaths(plugins: plugins, registry: registry, cache: root + "/cache", data: root + "/data"),
                helperExecutable: HostEndToEndTests.packageRoot + "/.build/debug/skillhost")
        }

        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// Tomorrow in the scenario's zone, as YYYY-MM-DD.
    static func tomorrow() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let day = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(86_400))
        return String(format: "%04d-%02d-%02d", day.year!, day.month!, day.day!)
    }

    @Test func offlineChatFindsTheSlotAndAddsTheReminderInOneSentence() throws {
        let day = Self.tomorrow()
        let setup = try Setup(busyDay: day)
        defer { setup.remove() }
        let (status, out, err) = try setup.chat(["--yes", Self.request])
        #expect(status == 0, "\(err)")
        let answer = out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            answer == "Found 1 free slot, 09:30–12:00 on \(day), then added the reminder \"workout\" due \(day) at 10:00.",
            "\(out)\n\(err)")
        #expect(out.contains("[ok] calendar.find_free_slots"))
        #expect(out.contains("[ok] reminders.add"))
        let reminders = setup.text(setup.reminders)
        #expect(reminders.contains("SUMMARY:workout\r\n"))
        // 10:00 in Berlin is 09:00 UTC in winter and 08:00 UTC in summer.
        let compact = day.replacingOccurrences(of: "-", with: "")
        #expect(reminders.contains("DUE:\(compact)T090000Z\r\n") || reminders.contains("DUE:\(compact)T080000Z\r\n"))
        #expect(setup.text(setup.calendar).components(separatedBy: "BEGIN:VEVENT").count == 2, "the calendar is only read")
    }

    @Test func theSameTurnAgainstTheScriptedServer() async throws {
        // A day far enough ahead that its morning is never in the past.
        let setup = try Setup(busyDay: "2036-12-01")
        defer { setup.remove() }
        let server = try ReplayServer([
            .json("call_calendar_find_free_slots.json"), .json("call_reminders_add_workout.json"),
            .json("answer_calendar_scenario.json"),
        ])
        defer { server.stop() }
        let host = setup.host
        let agent = Agent(
            provider: OpenAIProviderTests.provider(server, stream: false), backend: HostSkillBackend(host: host),
            configuration: AgentConfiguration(approval: AllowAllApproval()))
        let all = await events(of: agent, Self.request)
        await host.shutdown()
        #expect(all.skillFailures == [])
        #expect(all.answer == "Tomorrow morning is free from 09:30 to 12:00, and I added a Workout reminder for 10:00.")
        // The model saw both skills as tools, and got the real results back.
        let tools = server.requests.first?.body?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue }
        #expect(tools?.contains("calendar_find_free_slots") == true)
        #expect(tools?.contains("reminders_add") == true)
        let firstResult = try #require(server.requests[1].body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        let slots = try JSONValue(parsing: firstResult)
        #expect(slots["first_slot"] == "09:30–12:00 on 2036-12-01")
        let secondResult = try #require(server.requests[2].body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        #expect(try JSONValue(parsing: secondResult)["due"] == "2036-12-01T10:00:00+01:00")
        #expect(setup.text(setup.reminders).contains("DUE:20361201T090000Z\r\n"))
    }
}

extension CalendarScenarioTests.Setup {
    /// Runs `skillhost chat ARGUMENTS` against the setup's plugins, registry and a history of its own.
    func chat(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HostEndToEndTests.packageRoot + "/.build/debug/skillhost")
        process.arguments = ["chat"] + arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "SKILLHOST_MODEL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SKILLHOST_PROVIDER"] {
            environment[key] = nil
        }
        environment["SKILLHOST_PLUGINS"] = plugins
        environment["SKILLHOST_REGISTRY"] = registry
        environment["SKILLHOST_CACHE"] = root + "/cache"
        environment["XDG_DATA_HOME"] = root + "/data"
        environment["SKILLHOST_STATE"] = root + "/state"
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
}
