import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The agent path end to end (issue #30): `skillhost chat --attach notes.txt` against a scripted
/// OpenAI-compatible server that activates an instruction skill, runs its script on the attached file through
/// `run_skill_script`, and answers with its output; the files the script wrote are in the session's workspace
/// and named in the tool result the model got.
@Suite(.serialized, .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct ScriptChatTests {
    static func reply(_ message: String) -> ReplayServer.Response {
        .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(message.utf8), pieceSize: 0)
    }

    static func toolCall(_ id: String, _ name: String, _ arguments: JSONValue) -> ReplayServer.Response {
        reply(#"{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"\#(id)","type":"function","function":{"name":"\#(name)","arguments":\#(JSONValue.string(arguments.serialized()).serialized())}}]}}]}"#)
    }

    @Test func chatActivatesASkillRunsItsScriptOnAnAttachedFileAndAnswers() throws {
        let root = HostTestSupport.temporaryDirectory("skillhost-script-chat")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let skills = ["--skills", root + "/skills"]
        let added = try HostTestSupport.skillhost(["add", TestPackage.root + "/Tests/Fixtures/ScriptSkills/report-maker"] + skills, root: root)
        #expect(added.status == 0, "\(added.stderr)")
        try HostTestSupport.write("one two three four five\n", to: root + "/notes.txt")
        let server = try ReplayServer([
            Self.toolCall("call_1", "activate_skill", ["name": "report-maker"]),
            Self.toolCall("call_2", "run_skill_script", ["name": "report-maker", "path": "scripts/report.py", "args": ["notes.txt"]]),
            Self.reply(#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"notes.txt has 5 words; the report is in report.txt."}}]}"#),
        ], lifetime: 120)
        defer { server.stop() }
        let chat = try HostTestSupport.skillhost(
            ["chat", "--json", "--yes", "--provider", "openai", "--base-url", server.baseURL, "--model", "m", "--attach", root + "/notes.txt",
             "make a report of my notes"] + skills, root: root)
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stderr.contains("chat: attached notes.txt to the workspace \(root)/state/workspaces/"), "\(chat.stderr)")
        // The model was told the file is there, and got the activation's pointer to the script tool.
        let first = try #require(server.requests.first?.body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        #expect(first.contains("Attached: notes.txt"), "\(first)")
        let offered = server.requests.first?.body?["tools"]?.arrayValue?.compactMap { $0["function"]?["name"]?.stringValue } ?? []
        #expect(offered.contains("run_skill_script"), "\(offered)")
        // The script's result, as the model got it.
        let sent = try #require(server.requests.last?.body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        let result = try JSONValue(parsing: sent)
        #expect(result["exit_status"] == 0, "\(sent)")
        #expect(result["stdout"] == "REPORT HEADER v1: 5 words\n")
        let files = result["files"]?.arrayValue?.compactMap { $0["file"]?.stringValue } ?? []
        #expect(files.count == 3)
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        #expect(files.allSatisfy { $0.hasPrefix(root + "/state/workspaces/") })
        let events = chat.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        #expect(events.contains { $0["event"] == "skillSucceeded" && $0["skill"] == "run_skill_script" })
        #expect(events.last?["text"] == "notes.txt has 5 words; the report is in report.txt." || chat.stdout.contains("notes.txt has 5 words"))
        // Refused in one line: a file that is not there.
        let missing = try HostTestSupport.skillhost(["chat", "--offline", "--attach", root + "/nope.txt", "hi"] + skills, root: root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--attach \(root)/nope.txt: no such file"), "\(missing.stderr)")
    }

    /// `/name` activates an instruction skill directly (the client guide's explicit activation): its
    /// instructions reach the model in the first request, with the rest of the message; a `/name` that names
    /// no enabled skill is refused in one line, and a path is plain text.
    @Test func aSlashNameActivatesTheSkillDirectly() throws {
        let root = HostTestSupport.temporaryDirectory("skillhost-slash")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let skills = ["--skills", root + "/skills"]
        _ = try HostTestSupport.skillhost(["add", TestPackage.root + "/Tests/Fixtures/ScriptSkills/report-maker"] + skills, root: root)
        let server = try ReplayServer([Self.reply(#"{"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}]}"#)], lifetime: 60)
        defer { server.stop() }
        let model = ["--provider", "openai", "--base-url", server.baseURL, "--model", "m"]
        let chat = try HostTestSupport.skillhost(["chat", "/report-maker", "a report of notes.txt, please"] + model + skills, root: root)
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stderr.contains("chat: activated report-maker"), "\(chat.stderr)")
        let sent = try #require(server.requests.first?.body?["messages"]?.arrayValue?.last?["content"]?.stringValue)
        #expect(sent.hasPrefix("<activated_skill name=\"report-maker\">"), "\(sent)")
        #expect(sent.contains("Run `scripts/report.py INPUT`"), "\(sent)")
        #expect(sent.hasSuffix("a report of notes.txt, please"), "\(sent)")
        // A grant for a skill's scripts, shown by inspect.
        let granted = try HostTestSupport.skillhost(["grant", "report-maker", "network:tcp:443"] + skills, root: root)
        #expect(granted.stdout == "granted report-maker: network:tcp:443 (grants: network:tcp:443)\n", "\(granted.stderr)")
        let inspected = try HostTestSupport.skillhost(["inspect", "report-maker"] + skills, root: root)
        #expect(inspected.stdout.contains("scripts:     run sandboxed by run_skill_script; permission write, approval ask (skillhost set report-maker permission|approval …); grants: network:tcp:443 (skillhost grant)"), "\(inspected.stdout)")
        let unknown = try HostTestSupport.skillhost(["chat", "--offline", "/nope", "hi"] + skills, root: root)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("chat: /nope is not an enabled instruction skill, so the message was not sent; use one of: /report-maker"), "\(unknown.stderr)")
        let path = try HostTestSupport.skillhost(["chat", "--offline", "/etc/hosts", "what is in it?"] + skills, root: root)
        #expect(path.status == 0, "\(path.stderr)")
        #expect(!path.stderr.contains("instruction skill"), "\(path.stderr)")
    }
}
