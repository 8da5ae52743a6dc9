import Foundation
import SkillJSON
import Testing

/// `skillhost workflow` as a user runs it: the bundled skills, the real binary, the history database; the
/// morning briefing end to end, validation's one-line faults, and runs killed with SIGKILL at every point
/// of their graph, resumed.
@Suite(.serialized) struct WorkflowCLITests {
    let root: String

    init() throws {
        root = HostTestSupport.temporaryDirectory("skillhost-workflow")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        for product in ["ClockSkill", "CalendarSkill", "RemindersSkill", "TextSkill"] {
            let path = "\(TestPackage.buildDirectory)/lib\(product).so"
            try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing: run swift build")
            try FileManager.default.copyItem(atPath: path, toPath: "\(root)/plugins/lib\(product).so")
        }
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"
        for name in ["SKILLHOST_PLUGINS", "SKILLHOST_REGISTRY", "SKILLHOST_CACHE", "SKILLHOST_SKILLS"] { environment[name] = nil }
        return environment
    }

    var global: [String] {
        ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache", "--skills", root + "/skills"]
    }

    func skillhost(_ arguments: [String]) throws -> HostTestSupport.ProcessResult {
        try HostTestSupport.run(try HostTestSupport.skillhostBinary(), arguments + global, environment: environment)
    }

    func events(_ output: String) throws -> [JSONValue] {
        try output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    @Test func theMorningBriefingRunsEndToEnd() throws {
        // Today's event in the calendar file the calendar skill reads by default.
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let day = today.replacingOccurrences(of: "-", with: "")
        try HostTestSupport.write("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:standup@test\r
            DTSTAMP:\(day)T000000Z\r
            DTSTART:\(day)T100000Z\r
            DTEND:\(day)T103000Z\r
            SUMMARY:Team standup\r
            END:VEVENT\r
            END:VCALENDAR\r

            """, to: root + "/xdg-data/skillhost/data/calendar/calendar.ics")
        let file = TestPackage.root + "/docs/examples/morning-briefing.yaml"
        let checked = try skillhost(["workflow", "validate", file])
        #expect(checked.status == 0, "\(checked.stderr)")
        let run = try skillhost(["workflow", "run", file, "{\"zone\":\"UTC\"}", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try events(run.stdout)
        let finished = try #require(lines.last)
        #expect(finished["event"] == "run_finished")
        #expect(finished["state"] == "done")
        #expect(finished["outputs"]?["events"]?["count"] == 1)
        #expect(finished["outputs"]?["summary"]?["summary"]?.stringValue?.contains("Team standup") == true)
        // Every step has its card's four states in order: started, then finished done.
        for step in ["now", "events", "reminders", "summary"] {
            let states = lines.filter { $0["step"]?.stringValue == step }.compactMap { $0["event"]?.stringValue }
            #expect(states == ["step_started", "step_finished"], "\(step)")
        }
        // The run and its steps are one unit in the history; the calls are in trace under the workflow front end.
        let runID = try #require(lines.first?["run"]?.stringValue)
        let shown = try JSONValue(parsing: try skillhost(["workflow", "show", runID, "--json"]).stdout)
        #expect(shown["state"] == "done")
        #expect(shown["steps"]?.arrayValue?.count == 4)
        // history: the run is one session, its steps' calls under it.
        let history = try skillhost(["history", "workflow-" + runID])
        #expect(history.stdout.contains("workflow morning-briefing, run \(runID)"), "\(history.stdout)")
        #expect(history.stdout.components(separatedBy: "\n  [ok] ").count - 1 == 4, "\(history.stdout)")
        // Each card names its step, then the skill.
        for (step, skill) in [("now", "clock.now"), ("events", "calendar.list_events"), ("reminders", "reminders.list"), ("summary", "text.summarize")] {
            #expect(history.stdout.contains("  [ok] \(step) (\(skill)): "), "\(history.stdout)")
        }
        // Delivered: the host wrote the briefing to today's file under the deliveries folder.
        let delivered = root + "/xdg-data/skillhost/deliveries/morning-briefing/\(today).md"
        #expect(lines.contains { $0["event"] == "delivered" && $0["path"] == .string(delivered) }, "\(run.stdout)")
        let briefing = try String(contentsOfFile: delivered, encoding: .utf8)
        #expect(briefing.hasPrefix("# Morning briefing, "), "\(briefing)")
        #expect(briefing.contains("Team standup"), "\(briefing)")
        #expect(briefing == "# Morning briefing, \(finished["outputs"]?["now"]?["weekday"]?.stringValue ?? "?") \(today)\n\n\(finished["outputs"]?["summary"]?["summary"]?.stringValue ?? "?")\n")
        let trace = try skillhost(["trace", "--json"])
        #expect(trace.stdout.contains("workflow"), "\(trace.stdout.prefix(400))")
        // Text output: a card per step change.
        let text = try skillhost(["workflow", "run", file])
        #expect(text.status == 0)
        #expect(text.stdout.contains("[done] summary (text.summarize): "))
        #expect(text.stdout.contains("[delivered] "), "\(text.stdout)")
        // --parallel is bounded; a bad count is a usage error.
        for bad in ["0", "65", "many"] {
            let refused = try skillhost(["workflow", "run", file, "--parallel", bad])
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("--parallel takes a whole number from 1 to 64 (steps at once; each skill's max_workers still applies), not '\(bad)'"), "\(refused.stderr)")
        }
        #expect(try skillhost(["workflow", "run", file, "--parallel", "1"]).status == 0)
    }

    @Test func validationPrintsEveryFaultOnOneLineEach() throws {
        let file = root + "/bad.yaml"
        try HostTestSupport.write("""
            name: bad
            steps:
              - id: now
                skill: clock.nope
              - id: sum
                skill: text.summarize
                arguments:
                  text: ${{ steps.later.output }}
            """, to: file)
        let result = try skillhost(["workflow", "validate", file])
        #expect(result.status == 5)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("\(file):4:5: step now: no skill \"clock.nope\"") == true, "\(result.stderr)")
        #expect(lines.last == "\(file):8:17: step sum: ${{ steps.later.output }} names no step 'later'; use one of: now, sum")
        let json = try JSONValue(parsing: try skillhost(["workflow", "validate", file, "--json"]).stdout)
        #expect(json["ok"] == false)
        #expect(json["problems"]?.arrayValue?.count == 2)
        let run = try skillhost(["workflow", "run", file])
        #expect(run.status == 5)
        #expect(try skillhost(["workflow", "resume", "no-such-run"]).status == 3)
    }

    /// A chain of non-idempotent writes (`reminders.add`), killed with SIGKILL after each event line in turn
    /// and resumed: every reminder is in the file exactly once, and no step that had finished runs again.
    @Test func aFileThatCannotBeReadIsNamedWithoutAMadeUpPlace() throws {
        let missing = root + "/missing.yaml"
        let result = try skillhost(["workflow", "validate", missing])
        #expect(result.status != 0)
        #expect(result.stdout.contains("\(missing): cannot read the workflow") || result.stderr.contains("\(missing): cannot read the workflow"),
            "\(result.stdout)\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains(":0:0"))
    }

    @Test func aRunKilledAnywhereResumesWithoutRepeatingAStep() throws {
        let file = root + "/writes.yaml"
        try HostTestSupport.write("""
            name: writes
            steps:
              - id: first
                skill: reminders.add
                arguments:
                  title: First reminder
              - id: second
                skill: reminders.add
                needs: first
                arguments:
                  title: Second reminder
              - id: third
                skill: reminders.add
                needs: second
                arguments:
                  title: Third reminder
            """, to: file)
        let binary = try HostTestSupport.skillhostBinary()
        let reminders = root + "/xdg-data/skillhost/data/reminders/reminders.ics"
        // run_started, then started and finished for each step, then run_finished: kill after each of the first 7.
        var interruptedSteps = 0
        for killAfter in 1...7 {
            try? FileManager.default.removeItem(atPath: reminders)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["workflow", "run", file, "--json", "--yes"] + global
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var buffer = Data()
            var lines: [String] = []
            while lines.count < killAfter {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let firstLine = try #require(lines.first)
            let runID = try #require(try JSONValue(parsing: firstLine)["run"]?.stringValue)
            let before = try JSONValue(parsing: try skillhost(["workflow", "show", runID, "--json"]).stdout)
            let doneBefore = Set((before["steps"]?.arrayValue ?? []).filter { $0["state"] == "done" }.compactMap { $0["id"]?.stringValue })
            interruptedSteps += (before["steps"]?.arrayValue ?? []).filter { $0["state"] == "running" }.count
            let resumed = try skillhost(["workflow", "resume", runID, "--json", "--yes"])
            #expect(resumed.status == 0, "kill after \(killAfter): \(resumed.stdout) \(resumed.stderr)")
            let resumedEvents = try events(resumed.stdout)
            let startedAgain = Set(resumedEvents.filter { $0["event"] == "step_started" }.compactMap { $0["step"]?.stringValue })
            #expect(startedAgain.isDisjoint(with: doneBefore), "kill after \(killAfter): finished steps ran again")
            let text = (try? String(contentsOfFile: reminders, encoding: .utf8)) ?? ""
            for title in ["First reminder", "Second reminder", "Third reminder"] {
                #expect(text.components(separatedBy: "SUMMARY:\(title)").count - 1 == 1, "kill after \(killAfter): \(title)")
            }
            // Resuming a finished run runs nothing.
            let again = try events(try skillhost(["workflow", "resume", runID, "--json"]).stdout)
            #expect(!again.contains { $0["event"] == "step_started" })
        }
        // Some kills landed while a step's call was under way (the case that needs the idempotency key).
        #expect(interruptedSteps > 0)
    }

    /// An installed workflow is the skill `workflow.NAME`: called with its input schema, its write steps
    /// approved once, up front (refused: nothing runs).
    @Test func anInstalledWorkflowIsASkill() throws {
        let file = root + "/add-two.yaml"
        try HostTestSupport.write("""
            name: add-two
            description: Adds two reminders.
            inputs:
              type: object
              properties:
                what:
                  type: string
              required: [what]
            steps:
              - id: a
                skill: reminders.add
                arguments:
                  title: ${{ inputs.what }} one
              - id: b
                skill: reminders.add
                arguments:
                  title: ${{ inputs.what }} two
            """, to: file)
        let installed = try skillhost(["workflow", "install", file])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(try skillhost(["workflow", "list"]).stdout.contains("workflow.add-two  ok"))
        // list and inspect show it as a skill, with its permission (the highest of its steps').
        let listed = try JSONValue(parsing: try skillhost(["list", "--json"]).stdout)
        #expect(listed["workflows"]?.arrayValue?.first?["id"] == "workflow.add-two")
        #expect(listed["workflows"]?.arrayValue?.first?["permission"] == "write")
        #expect(try skillhost(["list"]).stdout.contains("workflow.add-two  ok        write"))
        let inspected = try JSONValue(parsing: try skillhost(["inspect", "workflow.add-two", "--json"]).stdout)
        #expect(inspected["parameters"]?["required"] == ["what"])
        #expect(inspected["description"]?.stringValue?.contains("a (reminders.add, write), b (reminders.add, write)") == true)
        #expect(try skillhost(["inspect", "workflow.nope"]).status == 3)
        let reminders = root + "/xdg-data/skillhost/data/reminders/reminders.ics"
        let refused = try skillhost(["call", "workflow.add-two", "{\"what\":\"Buy\"}"])
        #expect(refused.status == 10, "\(refused.stderr)")
        let before = (try? String(contentsOfFile: reminders, encoding: .utf8)) ?? ""
        #expect(!before.contains("Buy"))
        let invalid = try skillhost(["call", "workflow.add-two", "{}", "--yes"])
        #expect(invalid.status == 5)
        #expect(invalid.stderr.contains("missing required property \"what\""))
        let called = try skillhost(["call", "workflow.add-two", "{\"what\":\"Buy\"}", "--yes", "--json"])
        #expect(called.status == 0, "\(called.stderr)")
        let result = try JSONValue(parsing: called.stdout)
        #expect(result["result"]?["state"] == "done")
        #expect(result["result"]?["outputs"]?["b"]?["title"] == "Buy two")
        let text = try String(contentsOfFile: reminders, encoding: .utf8)
        #expect(text.contains("SUMMARY:Buy one") && text.contains("SUMMARY:Buy two"))
    }

    /// A schedule runs its workflow once per due minute however often `due` is called; the timer's unit
    /// files call `due` every minute.
    @Test func schedulesRunOncePerInstantAndTheTimerIsWritten() throws {
        let file = TestPackage.root + "/docs/examples/morning-briefing.yaml"
        #expect(try skillhost(["workflow", "install", file]).status == 0)
        let bad = try skillhost(["workflow", "schedule", "morning-briefing", "0 25 * * *"])
        #expect(bad.status == 5)
        #expect(bad.stderr.contains("the hour field '25': '25' is not 0–23; fix the schedule"))
        #expect(try skillhost(["workflow", "schedule", "nothing", "0 9 * * *"]).status == 3)
        let scheduled = try skillhost(["workflow", "schedule", "morning-briefing", "* * * * *", "{\"zone\":\"UTC\"}"])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        let now = Int64(Date().timeIntervalSince1970) + 120
        let first = try skillhost(["workflow", "due", "--now", "\(now)"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("morning-briefing: due at"))
        #expect(first.stdout.contains("[done] summary (text.summarize)"))
        // The same minute again: nothing to do.
        let second = try skillhost(["workflow", "due", "--now", "\(now + 30 - now % 60)"])
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty, "\(second.stdout)")
        #expect(try JSONValue(parsing: try skillhost(["workflow", "runs", "--json"]).stdout).arrayValue?.count == 1)
        // The timer.
        var environment = self.environment
        environment["XDG_CONFIG_HOME"] = root + "/config-home"
        let timer = try HostTestSupport.run(
            try HostTestSupport.skillhostBinary(), ["workflow", "due", "--install-timer", "--yes"] + global, environment: environment)
        #expect(timer.status == 0, "\(timer.stderr)")
        let service = try String(contentsOfFile: root + "/config-home/systemd/user/skillhost-workflows.service", encoding: .utf8)
        #expect(service.contains("Type=oneshot"))
        #expect(service.contains("/skillhost workflow due --yes --cache \(root)/cache --plugins \(root)/plugins"), "\(service)")
        #expect(service.contains("Environment=SKILLHOST_STATE=\(root)/state"))
        let unit = try String(contentsOfFile: root + "/config-home/systemd/user/skillhost-workflows.timer", encoding: .utf8)
        #expect(unit.contains("OnCalendar=*-*-* *:*:00"))
        #expect(unit.contains("WantedBy=timers.target"))
    }

    /// An installed workflow from a client we did not write: the official Python `mcp` package lists
    /// `workflow.morning-briefing` with the workflow's input schema and calls it.
    @Test(.timeLimit(.minutes(3))) func anInstalledWorkflowIsAnMCPTool() throws {
        let python = try PythonVirtualEnvironment(name: "mcp", packages: ["mcp>=2"], probe: "import mcp.client.stdio").python()
        #expect(try skillhost(["workflow", "install", TestPackage.root + "/docs/examples/morning-briefing.yaml"]).status == 0)
        let result = try HostTestSupport.run(
            python, [TestPackage.root + "/Tests/Peers/mcp_workflow_client.py", try HostTestSupport.skillhostBinary(), root],
            environment: environment)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("all checks passed"), "\(result.stdout)")
    }
}
