import Foundation
import SkillHostCore
import SkillJSON
import SkillMCP
import Synchronization
import Testing

/// An ``InstructionSkillSource`` over folders on disk, as the real one will be: every file of each
/// `<root>/<name>/` with its SHA-256.
final class FolderSkillSource: InstructionSkillSource {
    let root: String
    init(root: String) { self.root = root }

    func skills() throws -> [MCPInstructionSkill] {
        let names = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        return try names.map { name in
            let folder = root + "/" + name
            let paths = FileManager.default.enumerator(atPath: folder)!.compactMap { $0 as? String }
                .filter { path in
                    var isDirectory: ObjCBool = false
                    let exists = FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory)
                    return exists && !isDirectory.boolValue
                }.sorted()
            let files = try paths.map { path in
                let bytes = try read(skill: name, file: path)
                return MCPInstructionSkillFile(path: path, sha256: FileDigest.sha256(of: bytes), size: bytes.count)
            }
            return MCPInstructionSkill(
                name: name, frontmatter: ["name": .string(name), "description": .string("Use \(name) when testing."), "license": "MIT"],
                folder: folder, files: files)
        }
    }

    func read(skill name: String, file path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + name + "/" + path)))
    }

    var watchedPaths: [String] { [root] }
}

@Suite struct SkillsExtensionTests {
    /// Two skills: `alpha` with a nested folder and a binary file, `beta` with SKILL.md only.
    static func makeSkills() throws -> String {
        let root = MCPTestSupport.temporaryDirectory("skills")
        try MCPTestSupport.write("---\nname: alpha\ndescription: Use alpha when testing.\n---\n# Alpha\n", to: root + "/alpha/SKILL.md")
        try MCPTestSupport.write("guide", to: root + "/alpha/references/GUIDE.md")
        try MCPTestSupport.write("a", to: root + "/alpha/templates/regional/eu.md")
        try Data([0xFF, 0x00, 0xFE]).write(to: URL(fileURLWithPath: root + "/alpha/assets.bin"))
        try MCPTestSupport.write("---\nname: beta\ndescription: b\n---\n", to: root + "/beta/SKILL.md")
        return root
    }

    func serve(_ root: String, pageSize: Int = 100) -> (MCPServer, SentLines) {
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent, pageSize: pageSize, skills: FolderSkillSource(root: root))
        MCPTestSupport.handshake(server)
        return (server, sent)
    }

    @Test func skillsListHasEntriesWithDigestsOfEveryFile() async throws {
        let root = try Self.makeSkills()
        let (server, sent) = serve(root, pageSize: 1)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"skills/list"}"#)
        let page = try #require(try await sent.response(1)["result"])
        let alpha = try #require(page["skills"]?.arrayValue?.first)
        #expect(page["skills"]?.arrayValue?.count == 1)
        #expect(alpha["uri"] == "skill://alpha/SKILL.md")
        #expect(alpha["frontmatter"]?["license"] == "MIT")
        let resources = try #require(alpha["resources"]?.arrayValue)
        #expect(resources.map { $0["uri"] } == [
            "skill://alpha/SKILL.md", "skill://alpha/assets.bin", "skill://alpha/references/GUIDE.md",
            "skill://alpha/templates/regional/eu.md",
        ].sorted { ($0.stringValue ?? "") < ($1.stringValue ?? "") })
        for resource in resources {
            let path = String(resource["uri"]!.stringValue!.dropFirst("skill://alpha/".count))
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/alpha/" + path)))
            #expect(resource["digest"] == .string("sha256:" + FileDigest.sha256(of: bytes)))
        }
        let cursor = try #require(page["nextCursor"]?.stringValue)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{"cursor":"\#(cursor)"}}"#)
        #expect(try await sent.response(2)["result"]?["skills"]?.arrayValue?.map { $0["uri"] } == ["skill://beta/SKILL.md"])
    }

    @Test func skillsGetReturnsOneEntryAndRefusesOthers() async throws {
        let (server, sent) = serve(try Self.makeSkills())
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"skills/get","params":{"uri":"skill://beta/SKILL.md"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"skills/get","params":{"uri":"skill://gamma/SKILL.md"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://beta/other.md"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"skills/get","params":{}}"#)
        let skill = try #require(try await sent.response(1)["result"]?["skill"])
        #expect(skill["uri"] == "skill://beta/SKILL.md")
        #expect(skill["resources"]?.arrayValue?.count == 1)
        for id in [2, 3, 4] { #expect(try await sent.response(.int(Int64(id)))["error"]?["code"] == .int(-32602)) }
    }

    @Test func resourcesAreListedAndReadAsMarkdownTextOrBase64() async throws {
        let root = try Self.makeSkills()
        let (server, sent) = serve(root)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://alpha/SKILL.md"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"skill://alpha/assets.bin"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://alpha/../beta/SKILL.md"}}"#)
        let list = try #require(try await sent.response(1)["result"]?["resources"]?.arrayValue)
        #expect(list.count == 5)
        let skillMD = try #require(list.first { $0["uri"] == "skill://alpha/SKILL.md" })
        #expect(skillMD["name"] == "alpha")
        #expect(skillMD["description"] == "Use alpha when testing.")
        #expect(skillMD["mimeType"] == "text/markdown")
        let text = try #require(try await sent.response(2)["result"]?["contents"]?.arrayValue?.first)
        #expect(text["mimeType"] == "text/markdown")
        #expect(text["text"]?.stringValue == (try String(contentsOfFile: root + "/alpha/SKILL.md", encoding: .utf8)))
        let blob = try #require(try await sent.response(3)["result"]?["contents"]?.arrayValue?.first)
        #expect(blob["blob"] == "/wD+")
        #expect(try await sent.response(4)["error"]?["code"] == .int(-32602))
    }

    @Test func directoriesListTheirDirectChildren() async throws {
        let (server, sent) = serve(try Self.makeSkills())
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"resources/directory/read","params":{"uri":"skill://alpha"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":2,"method":"resources/directory/read","params":{"uri":"skill://alpha/templates"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":3,"method":"resources/directory/read","params":{"uri":"skill://alpha/SKILL.md"}}"#)
        server.receive(#"{"jsonrpc":"2.0","id":4,"method":"resources/directory/read","params":{"uri":"skill://nope"}}"#)
        let root = try #require(try await sent.response(1)["result"]?["resources"]?.arrayValue)
        #expect(Set(root.compactMap { $0["uri"]?.stringValue }) == [
            "skill://alpha/SKILL.md", "skill://alpha/assets.bin", "skill://alpha/references", "skill://alpha/templates",
        ])
        #expect(root.first { $0["uri"] == "skill://alpha/references" }?["mimeType"] == "inode/directory")
        let templates = try #require(try await sent.response(2)["result"]?["resources"]?.arrayValue)
        #expect(templates.map { $0["uri"] } == ["skill://alpha/templates/regional"])
        #expect(try await sent.response(3)["error"]?["code"] == .int(-32602))
        #expect(try await sent.response(4)["error"]?["code"] == .int(-32602))
    }

    @Test func aChangedSkillFolderIsNotifiedThroughTheWatcher() async throws {
        let root = try Self.makeSkills()
        let source = FolderSkillSource(root: root)
        let sent = SentLines()
        let server = MCPTestSupport.server(FakeBackend([]), sent: sent, skills: source)
        server.refresh()
        MCPTestSupport.handshake(server)
        let watcher = MCPChangeWatcher(paths: source.watchedPaths, interval: .milliseconds(20)) { server.refresh() }
        watcher.start()
        defer { watcher.stop() }
        try MCPTestSupport.write("more", to: root + "/beta/references/NEW.md")
        _ = try await sent.first(seconds: 5) { $0["method"] == "notifications/resources/list_changed" }
        #expect(!sent.messages.contains { $0["method"] == "notifications/tools/list_changed" })
    }
}
