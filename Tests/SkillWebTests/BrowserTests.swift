import Foundation
import SkillJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `skillhost ui` in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`) driven by
/// Selenium (PyPI, in `.build/peers/selenium`), against the built binary, the C fixture plugin and the
/// scripted OpenAI-compatible model server (``ReplayServer``). Tests/Peers/ui_browser.py holds the steps;
/// the screenshots go to `.build/ui-screenshots/`.
@Suite(.serialized) struct BrowserTests {
    static let selenium = PythonVirtualEnvironment(
        name: "selenium", packages: ["selenium>=4.20,<5"], probe: "import selenium.webdriver.chrome.service")

    /// A chat completion that calls one tool.
    static func toolCall(_ id: String, _ name: String, _ arguments: String) -> ReplayServer.Response {
        let call: JSONValue = [
            "id": .string(id), "type": "function", "function": ["name": .string(name), "arguments": .string(arguments)],
        ]
        let body: JSONValue = [
            "id": "chatcmpl-ui", "object": "chat.completion", "created": 1_770_000_000, "model": "scripted",
            "choices": [["index": 0, "message": ["role": "assistant", "content": .null, "tool_calls": [call]], "finish_reason": "tool_calls"]],
        ]
        return ReplayServer.Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Array(body.serialized().utf8), pieceSize: 0)
    }

    /// A streamed answer, one SSE chunk per word.
    static func answer(_ text: String) -> ReplayServer.Response {
        var stream = ""
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        for (index, word) in words.enumerated() {
            let piece = index == 0 ? String(word) : " " + word
            let chunk: JSONValue = [
                "id": "chatcmpl-ui", "object": "chat.completion.chunk", "created": 1_770_000_000, "model": "scripted",
                "choices": [["index": 0, "delta": ["content": .string(piece)], "finish_reason": .null]],
            ]
            stream += "data: \(chunk.serialized())\n\n"
        }
        let last: JSONValue = [
            "id": "chatcmpl-ui", "object": "chat.completion.chunk", "created": 1_770_000_000, "model": "scripted",
            "choices": [["index": 0, "delta": [:], "finish_reason": "stop"]],
        ]
        stream += "data: \(last.serialized())\n\ndata: [DONE]\n\n"
        return ReplayServer.Response(
            status: 200, headers: ["Content-Type": "text/event-stream"], body: Array(stream.utf8), pieceSize: 40, pause: 0.01)
    }

    @Test(.timeLimit(.minutes(5))) func aPersonChatsApprovesRetriesTogglesAndContinuesASession() throws {
        for program in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: program) {
            throw TestSetupError("missing \(program): install Debian's chromium and chromium-driver (scripts/ensure-deps.sh does)")
        }
        let python = try Self.selenium.python()
        let skillhost = try TestPackage.skillhostBinary()
        let server = try ReplayServer(
            [
                Self.toolCall("call_echo1", "fixture_echo", #"{"text":"hello"}"#), Self.answer("Echoed hello."),
                Self.toolCall("call_note1", "fixture_note", #"{"text":"buy milk"}"#), Self.answer("Noted."),
                Self.toolCall("call_fail1", "fixture_fail", "{}"), Self.answer("It failed."),
                Self.toolCall("call_note2", "fixture_note", #"{"text":"again"}"#), Self.answer("Not noted."),
                Self.answer("Once more."),
                Self.toolCall("call_act1", "activate_skill", #"{"name":"report-maker"}"#),
                Self.toolCall("call_run1", "run_skill_script", #"{"name":"report-maker","path":"scripts/report.py","args":[]}"#),
                Self.answer("The report is ready."),
                Self.toolCall("call_slow1", "fixture_slow", "{}"),
            ], lifetime: 300)
        defer { server.stop() }
        let root = TestPackage.temporaryDirectory("skillhost-ui")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let plugin = try CFixtureCompiler.sharedLibrary(
            [TestPackage.root + "/Tests/Fixtures/TestPlugins/fixture_plugin.c"], name: "fixture")
        try FileManager.default.copyItem(atPath: plugin, toPath: root + "/plugins/fixture.so")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/plugins/fixture.so")
        let environment = [
            "SKILLHOST_PLUGINS": root + "/plugins", "SKILLHOST_REGISTRY": root + "/skill_registry.json",
            "SKILLHOST_CACHE": root + "/cache", "SKILLHOST_SKILLS": root + "/skills", "XDG_DATA_HOME": root + "/data",
            "SKILLHOST_STATE": root + "/state",
        ]
        var full = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "SKILLHOST_PROVIDER", "SKILLHOST_MODEL"] {
            full[key] = nil
        }
        full.merge(environment) { _, new in new }
        let added = try TestProcess.run(skillhost, ["add", TestPackage.root + "/Tests/Fixtures/ScriptSkills/report-maker"], environment: full)
        #expect(added.status == 0, "\(added.stderr)")
        let shots = TestPackage.root + "/.build/ui-screenshots"
        try Self.drive(
            "ui_browser.py", python: python, skillhost: skillhost, model: server.baseURL, environment: environment, full: full,
            shots: shots, extra: ["--archive", TestPackage.root + "/Tests/Fixtures/Skills/zip-notes.zip"])
        for shot in ["chat.png", "skills.png", "settings.png", "trace.png", "chat-360.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: shots + "/" + shot)[.size] as? Int) ?? 0
            #expect(size > 1000, "screenshot \(shot)")
        }
        // The continued session's request carried the old conversation to the model.
        let last = try #require(server.requests.last?.body?["messages"]?.arrayValue)
        let contents = last.compactMap { $0["content"]?.stringValue }
        #expect(contents.contains("echo hello"), "\(contents)")
        #expect(contents.contains("and once more"), "\(contents)")
    }

    /// Starts `skillhost ui` on the scripted model server at `model` with `full` as its environment, runs
    /// `Tests/Peers/SCRIPT` against its URL (`environment`: what the script's `skillhost list` needs; the
    /// screenshots go to `shots`), then stops the server with SIGTERM and expects both to have succeeded.
    static func drive(
        _ script: String, python: String, skillhost: String, model: String, environment: [String: String], full: [String: String],
        shots: String, extra: [String] = []
    ) throws {
        let ui = try TestProcess.start(skillhost, ["ui", "--base-url", model, "--model", "scripted"], environment: full)
        defer {
            if ui.process.isRunning { kill(ui.process.processIdentifier, SIGKILL) }
        }
        let url = try firstLine(of: ui.output, seconds: 60)
        #expect(url.hasPrefix("http://127.0.0.1:"), "\(url)")
        #expect(url.contains("/?token="), "\(url)")
        let environmentText = JSONValue.object(JSONObject(environment.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })).serialized()
        let run = try TestProcess.run(
            python,
            [TestPackage.root + "/Tests/Peers/" + script, "--url", url, "--skillhost", skillhost, "--env", environmentText, "--shots", shots] + extra,
            environment: full.merging(["SE_AVOID_STATS": "true"]) { _, new in new })
        kill(ui.process.processIdentifier, SIGTERM)
        let served = TestProcess.finish(ui.process, output: ui.output, errors: ui.errors)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)\n--- skillhost ui:\n\(served.stderr)")
        #expect(run.stdout.contains("all checks passed"), "\(run.stdout)")
        #expect(served.status == 0, "skillhost ui stopped cleanly on SIGTERM: \(served.stderr)")
    }

    /// The first line the process writes on stdout (the URL), within `seconds`.
    static func firstLine(of pipe: Pipe, seconds: Double) throws -> String {
        let handle = pipe.fileHandleForReading
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(handle.fileDescriptor, &byte, 1) == 1 else { break }
            if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        throw TestSetupError("skillhost ui printed no URL within \(seconds) s (so far: \(String(decoding: bytes, as: UTF8.self)))")
    }
}
