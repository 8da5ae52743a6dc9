import Foundation
import SkillJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `skillhost chat` in a real terminal (tmux): a person who takes longer to answer the `[y/N]` prompt than
/// the skill's timeout still gets the skill run, because the skill's clock starts when the skill starts,
/// not when the prompt appears; the answer goes to the prompt, not to the shell after chat.
@Suite(.serialized, .enabled(if: TerminalSession.isAvailable)) struct ChatApprovalTerminalTests {
    @Test func aSlowAnswerAtThePromptIsNotCountedAgainstTheSkillsTimeout() throws {
        let server = try ReplayServer([.json("call_fixture_note.json"), .json("answer_note.json")])
        defer { server.stop() }
        let host = try HostEndToEndTests.makeHost()
        defer { HostEndToEndTests.cleanUp(host) }
        let plugin = try ChatCommandTests.fixturePlugin.get()
        let target = host.paths.plugins + "/fixture.so"
        try FileManager.default.copyItem(atPath: plugin, toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
        // fixture.note may run for 1 s; the person answers after 3 s.
        try TestPackage.write(
            #"{"version": 1, "plugins": {"fixture": {"skills": {"fixture.note": {"timeout": 1}}}}}"#, to: host.paths.registry)
        let state = host.paths.data + "/state"
        let session = try TerminalSession(environment: [
            "SKILLHOST_PLUGINS": host.paths.plugins, "SKILLHOST_REGISTRY": host.paths.registry,
            "SKILLHOST_CACHE": host.paths.cache, "XDG_DATA_HOME": host.paths.data, "SKILLHOST_STATE": state,
        ])
        defer { session.close() }
        session.type(
            "'\(host.helperExecutable)' chat --json --base-url \(server.baseURL) --model gpt-4o-mini 'note buy milk'; echo chat-ended-$((6 * 7)) status=$?")
        let prompt = try session.waitFor("Allow write skill fixture.note", seconds: 60)
        #expect(prompt.contains("[y/N]"))
        Thread.sleep(forTimeInterval: 3)
        session.type("y")
        let screen = try session.waitFor("chat-ended-42", seconds: 60)
        #expect(screen.contains("chat-ended-42 status=0"), "\(screen)")
        #expect(screen.contains(#""event":"skillSucceeded","call_id":"call_Nt1","tool":"fixture_note","skill":"fixture.note""#), "\(screen)")
        #expect(!screen.contains("did not finish within"), "\(screen)")
        #expect(!screen.contains(#""kind":"timeout""#), "\(screen)")
        // The `y` was read by the prompt: nothing reached the shell after chat.
        #expect(!screen.contains("command not found"), "\(screen)")
        #expect(screen.contains(#""result":{"written":"#), "the note was written: \(screen)")
    }

    @Test func ctrlCAtThePromptLeavesTheNextLineToChat() throws {
        let server = try ReplayServer([.json("call_fixture_note.json"), .json("answer_note.json")])
        defer { server.stop() }
        let host = try HostEndToEndTests.makeHost()
        defer { HostEndToEndTests.cleanUp(host) }
        let target = host.paths.plugins + "/fixture.so"
        try FileManager.default.copyItem(atPath: try ChatCommandTests.fixturePlugin.get(), toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
        let session = try TerminalSession(environment: [
            "SKILLHOST_PLUGINS": host.paths.plugins, "SKILLHOST_REGISTRY": host.paths.registry,
            "SKILLHOST_CACHE": host.paths.cache, "XDG_DATA_HOME": host.paths.data, "SKILLHOST_STATE": host.paths.data + "/state",
        ])
        defer { session.close() }
        session.type("'\(host.helperExecutable)' chat --base-url \(server.baseURL) --model gpt-4o-mini")
        _ = try session.waitFor("Type 'exit'", seconds: 60)
        session.type("note buy milk")
        _ = try session.waitFor("Allow write skill fixture.note", seconds: 60)
        session.press("C-c")
        _ = try session.waitFor("chat: interrupted", seconds: 30)
        // The next line is a new request (the model's next answer), not an answer to the question left behind.
        session.type("hello again")
        let screen = try session.waitFor("Done with the note request.", seconds: 60)
        #expect(server.requests.count == 2, "\(screen)")
        session.type("exit")
    }
}

/// A shell in a detached tmux session on a tmux server of its own (its own socket, so no other tmux of
/// the user is touched): type lines into it and read its screen. tmux runs through `system`/`popen`, which
/// wait for their own child (the server tmux starts outlives the command that starts it).
struct TerminalSession {
    let socket: String

    /// Whether tmux is installed.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `bash` (no rc files) in a 200×50 terminal with `environment` added.
    init(environment: [String: String]) throws {
        socket = "skillhost-test-\(UUID().uuidString.prefix(8))"
        let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let status = Self.shell(
            ["/usr/bin/tmux", "-L", socket, "new-session", "-d", "-x", "200", "-y", "50", "/usr/bin/env"] + exports
                + ["PS1=$ ", "/bin/bash", "--norc", "--noprofile", "-i"])
        guard status == 0 else { throw TestSetupError("tmux new-session failed (system() returned \(status))") }
    }

    /// `words` as one shell command line, each word quoted.
    private static func commandLine(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// Runs `words` with no input or output; returns `system`'s status.
    private static func shell(_ words: [String]) -> Int32 { system(commandLine(words) + " </dev/null >/dev/null 2>&1") }

    /// Presses a key (tmux's name for it, e.g. `C-c`).
    func press(_ key: String) { _ = Self.shell(["/usr/bin/tmux", "-L", socket, "send-keys", key]) }

    /// Types `line` and Enter.
    func type(_ line: String) {
        _ = Self.shell(["/usr/bin/tmux", "-L", socket, "send-keys", "-l", line])
        _ = Self.shell(["/usr/bin/tmux", "-L", socket, "send-keys", "Enter"])
    }

    /// The screen and its scrollback, wrapped lines joined.
    var screen: String {
        guard let pipe = popen(Self.commandLine(["/usr/bin/tmux", "-L", socket, "capture-pane", "-p", "-J", "-S", "-500"]) + " 2>/dev/null", "r")
        else { return "" }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        pclose(pipe)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The screen once it shows `text`, waiting up to `seconds`.
    func waitFor(_ text: String, seconds: Double) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let now = screen
            if now.contains(text) { return now }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw TestSetupError("the terminal did not show \"\(text)\" within \(seconds) s; it shows:\n\(screen)")
    }

    /// Ends the session's tmux server (this test's own) and its shell.
    func close() { _ = Self.shell(["/usr/bin/tmux", "-L", socket, "kill-server"]) }
}
