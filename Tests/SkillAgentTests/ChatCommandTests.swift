import Foundation
import SkillJSON
import Testing

/// `skillhost chat` as a user runs it: the built binary, the example plugins, the offline planner.
@Suite(.serialized) struct ChatCommandTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `.build/debug/skillhost chat …` over a temporary copy of the example plugins.
    static func chat(
        _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:], plugins: [String] = [],
        terminal: Bool = false
    ) throws -> Run {
        let host = try HostEndToEndTests.makeHost()
        defer { HostEndToEndTests.cleanUp(host) }
        for plugin in plugins {
            let target = host.paths.plugins + "/" + URL(fileURLWithPath: plugin).lastPathComponent
            try FileManager.default.copyItem(atPath: plugin, toPath: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
        }
        let executable: String
        let commandLine: [String]
        if terminal {
            // util-linux `script` gives the command a pseudo-terminal; our stdin is typed into it.
            let command = ([host.helperExecutable, "chat"] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
            executable = "/usr/bin/script"
            commandLine = ["-qec", command, "/dev/null"]
        } else {
            executable = host.helperExecutable
            commandLine = ["chat"] + arguments
        }
        var environment = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "SKILLHOST_MODEL", "SKILLHOST_PROVIDER", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SKILLHOST_STREAM"] {
            environment[key] = nil
        }
        environment["SKILLHOST_PLUGINS"] = host.paths.plugins
        environment["SKILLHOST_REGISTRY"] = host.paths.registry
        environment["SKILLHOST_CACHE"] = host.paths.cache
        environment["XDG_DATA_HOME"] = host.paths.data
        environment["SKILLHOST_STATE"] = host.paths.data + "/state"  // the history database, inside the temporary root
        environment.merge(extra) { _, new in new }
        let result = try TestProcess.run(executable, commandLine, environment: environment, stdin: stdin)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test func jsonPrintsOneEventPerLine() throws {
        let run = try Self.chat(["--json", "what time is it in Europe/Paris, then how long has this machine been up"])
        #expect(run.status == 0)
        let events = try run.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let kinds = events.compactMap { $0["event"]?.stringValue }
        #expect(kinds.first == "state")
        #expect(kinds.filter { $0 == "skillStarted" }.count == 2)
        let succeeded = events.filter { $0["event"] == "skillSucceeded" }
        #expect(succeeded.compactMap { $0["skill"]?.stringValue } == ["clock.now", "sysinfo.uptime"])
        #expect(succeeded.first?["arguments"] == ["timezone": "Europe/Paris"])
        #expect(succeeded.first?["result"]?["timezone"] == "Europe/Paris")
        #expect(events.last == ["event": "state", "state": "finished"])
        let answer = events.last { $0["event"] == "messageCompleted" }?["content"]?.stringValue ?? ""
        #expect(answer.contains(" (Europe/Paris).\n"))
        #expect(answer.contains("This machine has been up for "))
        #expect(succeeded.first?["summary"]?.stringValue?.hasPrefix("It is ") == true, "the card uses clock.now's template")
    }

    @Test func plainOutputShowsCardsAndTheAnswer() throws {
        let run = try Self.chat(["count the words in one two three four"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("  [running] text.stats\n"))
        #expect(run.stdout.contains("  [ok] text.stats: "))
        #expect(run.stdout.hasSuffix("\n"))
        #expect(!run.stdout.contains("\u{1B}["))
    }

    @Test func interactiveSessionKeepsGoingUntilExit() throws {
        let run = try Self.chat([], stdin: "what time is it in UTC\nbook a flight\nexit\nuptime\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("[ok] clock.now"))
        #expect(run.stdout.contains("I could not map \"book a flight\" to any enabled skill."))
        #expect(!run.stdout.contains("sysinfo.uptime"))  // after 'exit'
    }

    /// The C fixture plugin (Tests/Fixtures/TestPlugins) as `fixture.so`; its `fixture.note` is a `write` skill.
    static let fixturePlugin: Result<String, SetupError> = {
        let root = HostEndToEndTests.packageRoot
        let output = NSTemporaryDirectory() + "skillagent-fixture-\(UUID().uuidString.prefix(8))/fixture.so"
        try? FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        process.arguments = [
            "-std=c99", "-D_DEFAULT_SOURCE", "-fPIC", "-shared", "-fvisibility=hidden", "-I", root + "/Sources/CSkillABI/include",
            root + "/Tests/Fixtures/TestPlugins/fixture_plugin.c", "-o", output,
        ]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return .failure(SetupError(description: "cannot run cc: \(error)"))
        }
        return process.terminationStatus == 0 ? .success(output) : .failure(SetupError(description: "cc failed on fixture_plugin.c"))
    }()

    typealias SetupError = HostEndToEndTests.SetupError

    /// Runs one chat turn against a replay server that asks for `fixture.note`, then answers.
    static func noteTurn(_ flags: [String], stdin: String? = nil, terminal: Bool = false) throws -> (Run, [JSONValue]) {
        let server = try ReplayServer([.json("call_fixture_note.json"), .json("answer_note.json")])
        defer { server.stop() }
        let run = try chat(
            flags + ["--json", "--base-url", server.baseURL, "--model", "gpt-4o-mini", "note buy milk"], stdin: stdin,
            plugins: [try fixturePlugin.get()], terminal: terminal)
        let events = run.stdout.split(whereSeparator: \.isNewline).compactMap { try? JSONValue(parsing: String($0)) }
        return (run, events)
    }

    @Test func writeSkillsAreDeniedWhenNobodyCanBeAsked() throws {
        let (run, events) = try Self.noteTurn([])
        #expect(run.status == 0)
        let failed = try #require(events.first { $0["event"] == "skillFailed" })
        #expect(failed["skill"] == "fixture.note")
        #expect(failed["error"]?["kind"] == "denied")
        #expect(failed["error"]?["message"]?.stringValue?.contains("--yes") == true)
        #expect(!events.contains { $0["event"] == "skillSucceeded" })
    }

    @Test func yesApprovesWriteSkills() throws {
        let (run, events) = try Self.noteTurn(["--yes"])
        #expect(run.status == 0)
        let succeeded = try #require(events.first { $0["event"] == "skillSucceeded" })
        #expect(succeeded["skill"] == "fixture.note")
        #expect(succeeded["result"]?["written"]?.intValue ?? 0 > 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aTerminalAsksAndTheAnswerDecides() throws {
        // The prompt shares the terminal with the JSON lines, so look for the events in the raw output.
        let (allowed, _) = try Self.noteTurn([], stdin: "y\n", terminal: true)
        #expect(allowed.stdout.contains("Allow write skill fixture.note"))
        #expect(allowed.stdout.contains(#"{"event":"skillSucceeded","call_id":"call_Nt1","tool":"fixture_note","skill":"fixture.note""#))
        let (refused, _) = try Self.noteTurn([], stdin: "n\n", terminal: true)
        #expect(refused.stdout.contains("Allow write skill fixture.note"))
        #expect(refused.stdout.contains(#""error":{"kind":"denied""#))
        #expect(!refused.stdout.contains("skillSucceeded"))
    }

    @Test func interruptCancelsTheTurnAndExits130() throws {
        var slow = ReplayServer.Response.json("answer_time.json")
        slow.delay = 20
        let server = try ReplayServer([slow])
        defer { server.stop() }
        let host = try HostEndToEndTests.makeHost()
        defer { HostEndToEndTests.cleanUp(host) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: host.helperExecutable)
        process.arguments = ["chat", "--base-url", server.baseURL, "--model", "m", "hello"]
        var environment = ProcessInfo.processInfo.environment
        environment["SKILLHOST_PLUGINS"] = host.paths.plugins
        environment["SKILLHOST_REGISTRY"] = host.paths.registry
        environment["SKILLHOST_CACHE"] = host.paths.cache
        environment["XDG_DATA_HOME"] = host.paths.data
        environment["SKILLHOST_STATE"] = host.paths.data + "/state"  // the history database, inside the temporary root
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        let start = Date()
        try process.run()
        // Wait until the request reached the server, then press Ctrl-C.
        while server.requests.isEmpty, Date().timeIntervalSince(start) < 10 { usleep(20_000) }
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(Date().timeIntervalSince(start) < 10)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("chat: interrupted"))
    }

    @Test func aServerWithoutAModelIsAUsageError() throws {
        let run = try Self.chat(["--base-url", "http://127.0.0.1:9/v1", "hi"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("no model named for http://127.0.0.1:9/v1; pass --model NAME or set SKILLHOST_MODEL"))
    }

    @Test func anUnreachableServerFailsWithExitOneAndNoKey() throws {
        let run = try Self.chat(
            ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi"], environment: ["OPENAI_API_KEY": "sk-do-not-print"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot reach"))
        #expect(!run.stderr.contains("sk-do-not-print"))
        #expect(!run.stdout.contains("sk-do-not-print"))
    }
}
