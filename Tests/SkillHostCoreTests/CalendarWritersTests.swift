import Foundation
import Testing

/// The calendar and reminders plugins through the real `skillhost call`, several processes at once: every
/// write takes the file's lock, so none is lost and no temporary file is left behind.
@Suite("Calendar and reminders files under concurrent skillhost processes")
struct CalendarWritersTests {
    /// A host folder with the built calendar and reminders plugins and a registry pointing them at files.
    func root() throws -> (root: String, calendar: String, reminders: String) {
        let root = HostTestSupport.temporaryDirectory("skillhost-calendar")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        for name in ["calendar", "reminders"] {
            let file = HostTestSupport.packageRoot + "/.build/plugins/\(name).so"
            guard FileManager.default.fileExists(atPath: file) else {
                throw TestSetupError("missing \(file): run 'bash scripts/build-plugins.sh' (scripts/test.sh does)")
            }
            try HostTestSupport.install(file, into: root + "/plugins", as: "\(name).so")
        }
        let calendar = root + "/files/calendar.ics"
        let reminders = root + "/files/reminders.ics"
        try HostTestSupport.write(
            """
            {"version": 1, "plugins": {
              "calendar": {"config": {"calendar_file": "\(calendar)", "timezone": "Europe/Berlin"}},
              "reminders": {"config": {"reminders_file": "\(reminders)", "timezone": "Europe/Berlin"}}}}
            """, to: root + "/config/skill_registry.json")
        return (root, calendar, reminders)
    }

    /// Starts `skillhost call` once per argument object, all at once, and waits for every one.
    func callAtOnce(_ skill: String, _ argumentObjects: [String], root: String) throws -> [HostTestSupport.ProcessResult] {
        let results = NSLock()
        nonisolated(unsafe) var collected: [HostTestSupport.ProcessResult?] = Array(repeating: nil, count: argumentObjects.count)
        nonisolated(unsafe) var failure: Error?
        let group = DispatchGroup()
        for (index, arguments) in argumentObjects.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let result = try HostTestSupport.skillhost(["call", skill, arguments, "--yes", "--json"], root: root)
                    results.lock()
                    collected[index] = result
                    results.unlock()
                } catch {
                    results.lock()
                    failure = error
                    results.unlock()
                }
            }
        }
        group.wait()
        if let failure { throw failure }
        return collected.map { $0! }
    }

    @Test("four processes adding events at once lose none of them")
    func concurrentEvents() throws {
        let (root, calendar, _) = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Scan once first, so the four processes do not race to build the scan cache.
        _ = try HostTestSupport.skillhost(["list"], root: root)
        let titles = (1...4).map { "Parallel \($0)" }
        let results = try callAtOnce(
            "calendar.create_event", titles.map { #"{"title": "\#($0)", "start": "2026-12-01T10:00"}"# }, root: root)
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let text = try String(contentsOfFile: calendar, encoding: .utf8)
        for title in titles { #expect(text.contains("SUMMARY:\(title)\r\n"), "\(title) was lost") }
        #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 4)
        let files = try FileManager.default.contentsOfDirectory(atPath: (calendar as NSString).deletingLastPathComponent)
        #expect(files == ["calendar.ics"], "no temporary files are left")
    }

    @Test("writers killed with SIGKILL lose nothing acknowledged, and the next writer leaves no temporary file")
    func killedWritersLeaveNoLitter() throws {
        let (root, calendar, _) = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try HostTestSupport.skillhost(["list"], root: root)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"
        let global = ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
        let binary = try HostTestSupport.skillhostBinary()
        var acknowledged: [String] = []
        // 15 rounds of 8 writers; every other one is killed with SIGKILL at a random moment of its write.
        for round in 0..<15 {
            let writers = try (0..<8).map { index in
                let title = "R\(round)W\(index)"
                let started = try TestProcess.start(
                    binary, ["call", "calendar.create_event", #"{"title": "\#(title)", "start": "2026-12-01T10:00"}"#, "--yes"] + global,
                    environment: environment)
                return (title: title, started: started)
            }
            for (index, writer) in writers.enumerated() where index % 2 == 1 {
                usleep(UInt32.random(in: 0...60_000))
                kill(writer.started.process.processIdentifier, SIGKILL)
            }
            for writer in writers {
                let result = TestProcess.finish(writer.started.process, output: writer.started.output, errors: writer.started.errors)
                if result.status == 0 { acknowledged.append(writer.title) }
            }
        }
        // One more write, after every writer is gone (a second later: an unlocked temporary file younger than
        // that may be a live writer's about to lock it, when its process cannot be seen from here).
        usleep(1_100_000)
        let last = try HostTestSupport.skillhost(
            ["call", "calendar.create_event", #"{"title": "After", "start": "2026-12-01T11:00"}"#, "--yes"], root: root)
        #expect(last.status == 0, "\(last.stderr)")
        let text = try String(contentsOfFile: calendar, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.hasSuffix("END:VCALENDAR\r\n"), "the calendar is whole")
        for title in acknowledged + ["After"] { #expect(text.contains("SUMMARY:\(title)\r\n"), "\(title) was acknowledged and lost") }
        #expect(acknowledged.count >= 60, "the writers that were not killed all finished")
        let files = try FileManager.default.contentsOfDirectory(atPath: (calendar as NSString).deletingLastPathComponent)
        #expect(files.filter { $0.hasSuffix(".tmp") } == [], "temporary files left: \(files)")
    }

    @Test("two processes adding reminders at once lose neither, and both are listed")
    func concurrentReminders() throws {
        let (root, _, _) = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try HostTestSupport.skillhost(["list"], root: root)
        let results = try callAtOnce(
            "reminders.add", [#"{"title": "Workout", "due": "2026-12-01T10:00"}"#, #"{"title": "Stretch"}"#], root: root)
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let listed = try HostTestSupport.skillhost(["call", "reminders.list", "{}", "--json"], root: root)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("Workout") && listed.stdout.contains("Stretch"))
    }

    @Test("a write without --yes from a script is denied and leaves the file alone")
    func writeNeedsApproval() throws {
        let (root, calendar, _) = try root()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try HostTestSupport.skillhost(
            ["call", "calendar.create_event", #"{"title": "X", "start": "2026-12-01T10:00"}"#], root: root)
        #expect(result.status == 10)
        #expect(!FileManager.default.fileExists(atPath: calendar))
    }
}
