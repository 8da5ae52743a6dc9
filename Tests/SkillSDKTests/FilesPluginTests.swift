import CSkillABI
import Foundation
import SkillJSON
import SkillCheck
import SkillSDK
import Testing

/// The files plugin against a scratch root holding text, Latin-1, UTF-16, binary and symlinked files.
@Suite struct FilesPluginTests {
    let plugin: PluginLibrary
    /// The root the plugin is configured with, and a folder beside it that must stay unreachable.
    let root: String
    let outside: String

    init() throws {
        plugin = try PluginLibrary.swiftProduct("FilesSkill")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("files-skill-\(UUID().uuidString)").path
        root = scratch + "/root"
        outside = scratch + "/outside"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/notes/deep", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "secret\n".write(toFile: outside + "/secret.txt", atomically: true, encoding: .utf8)
        try "buy milk\ncall Anna about the invoice\n".write(toFile: root + "/notes/todo.txt", atomically: true, encoding: .utf8)
        try "# Plan\nInvoice 2026-11 is due.\n".write(toFile: root + "/notes/deep/plan.md", atomically: true, encoding: .utf8)
        try "hidden\n".write(toFile: root + "/.profile", atomically: true, encoding: .utf8)
        try "日本語のテキスト\n".write(toFile: root + "/japanese.txt", atomically: true, encoding: .utf8)
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: root + "/latin1.txt"))  // "café\n"
        try Data([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00]).write(to: URL(fileURLWithPath: root + "/utf16.txt"))  // "hi"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
            .write(to: URL(fileURLWithPath: root + "/image.png"))
        try manager.createSymbolicLink(atPath: root + "/escape", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: root + "/secret-link.txt", withDestinationPath: outside + "/secret.txt")
        try manager.createSymbolicLink(atPath: root + "/todo-link.txt", withDestinationPath: root + "/notes/todo.txt")
    }

    func call(_ skill: String, _ arguments: JSONValue, root: String? = nil) async -> TestHost.Call {
        let configuration: JSONValue = ["root": .string(root ?? self.root)]
        return await TestHost().call(
            plugin.descriptor, skill, arguments.serialized(), configuration: configuration.serialized())
    }

    @Test func exportsOnlyTheEntryPoint() throws {
        #expect(try PluginLibrary.exportedSymbols(plugin.path) == ["skill_plugin_entry"])
    }

    @Test func manifestFollowsTheContract() throws {
        let manifest = try plugin.manifest()
        #expect(manifest["id"] == "files")
        #expect(
            manifest["skills"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
                == ["files.list", "files.read", "files.search"])
        #expect(SkillPlugin.problems(inManifest: manifest) == [])
        for skill in manifest["skills"]?.arrayValue ?? [] {
            #expect(skill["permission"] == "read")
            #expect(skill["parameters"]?["additionalProperties"] == false)
            #expect((skill["examples"]?.arrayValue?.count ?? 0) >= 4)
            #expect(skill["description"]?.stringValue?.contains("Not for") == true)
            #expect(skill["summary"]?.stringValue != nil)
        }
    }

    @Test func listsTheRootWithoutHiddenNames() async {
        let call = await call("files.list", [:])
        #expect(call.status == SKILL_STATUS_OK, "\(call.text)")
        let names = call.json?["entries"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(
            names == [
                "escape", "image.png", "japanese.txt", "latin1.txt", "notes", "secret-link.txt", "todo-link.txt",
                "utf16.txt",
            ])
        let escape = call.json?["entries"]?.arrayValue?.first { $0["name"] == "escape" }
        #expect(escape?["type"] == "symlink", "a symlinked folder is reported, not entered")
    }

    @Test func listsRecursivelyWithinTheLimit() async {
        let call = await call("files.list", ["path": "notes", "recursive": true, "max_entries": 2])
        #expect(call.status == SKILL_STATUS_OK, "\(call.text)")
        #expect(call.json?["entries"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["notes/deep", "notes/todo.txt"])
        #expect(call.json?["truncated"] == true)
    }

    @Test func readsUTF8Text() async {
        let call = await call("files.read", ["path": "notes/todo.txt"])
        #expect(call.status == SKILL_STATUS_OK, "\(call.text)")
        #expect(call.json?["text"] == "buy milk\ncall Anna about the invoice\n")
        #expect(call.json?["encoding"] == "utf-8")
        #expect(call.json?["lines"] == 2)
        #expect(call.json?["truncated"] == false)
    }

    @Test func readsAWindowWithoutCuttingACharacter() async {
        // Each Japanese character is 3 bytes: a window from offset 1 starts at the next character, and one
        // ending inside a character leaves it for the next read.
        let cut = await call("files.read", ["path": "japanese.txt", "offset": 1, "max_bytes": 7])
        #expect(cut.json?["text"] == "本")
        #expect(cut.json?["next_offset"] == 6)
        let first = await call("files.read", ["path": "japanese.txt", "offset": 1, "max_bytes": 8])
        #expect(first.status == SKILL_STATUS_OK, "\(first.text)")
        #expect(first.json?["text"] == "本語")
        #expect(first.json?["next_offset"] == 9)
        let rest = await call("files.read", ["path": "japanese.txt", "offset": 9])
        #expect(rest.json?["text"] == "のテキスト\n")
        #expect(rest.json?["next_offset"] == nil)
        #expect(rest.json?["truncated"] == false)
    }

    @Test func detectsLatin1AndUTF16() async {
        let latin = await call("files.read", ["path": "latin1.txt"])
        #expect(latin.json?["text"] == "café\n")
        #expect(latin.json?["encoding"] == "latin-1")
        let wide = await call("files.read", ["path": "utf16.txt"])
        #expect(wide.json?["text"] == "hi")
        #expect(wide.json?["encoding"] == "utf-16le")
    }

    @Test func refusesBinaryFilesSayingSo() async {
        let call = await call("files.read", ["path": "image.png"])
        #expect(call.status == SKILL_STATUS_FAILED)
        #expect(call.json?["message"]?.stringValue?.contains("binary file") == true, "\(call.text)")
    }

    @Test func refusesAForcedEncodingTheBytesDoNotFit() async {
        let call = await call("files.read", ["path": "latin1.txt", "encoding": "utf-8"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["message"] == "\"latin1.txt\" is not valid utf-8 at byte 3")
    }

    @Test(arguments: ["../outside/secret.txt", "notes/../../outside/secret.txt", ".."])
    func refusesDotDot(path: String) async {
        let call = await call("files.read", ["path": .string(path)])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["field"] == "/path")
        #expect(call.json?["message"]?.stringValue?.contains("\"..\" would leave the root") == true, "\(call.text)")
    }

    @Test func refusesAbsolutePaths() async {
        let call = await call("files.read", ["path": .string(outside + "/secret.txt")])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["message"]?.stringValue?.hasPrefix("absolute path") == true, "\(call.text)")
    }

    @Test(arguments: ["secret-link.txt", "escape/secret.txt", "escape"])
    func refusesSymlinksLeavingTheRoot(path: String) async {
        let call = await call(path == "escape" ? "files.list" : "files.read", ["path": .string(path)])
        #expect(call.status == SKILL_STATUS_PERMISSION_DENIED)
        #expect(call.json?["message"]?.stringValue?.contains("a symlink leads outside the root") == true, "\(call.text)")
        #expect(call.text.contains("secret\n") == false)
    }

    @Test func followsSymlinksThatStayInside() async {
        let call = await call("files.read", ["path": "todo-link.txt"])
        #expect(call.status == SKILL_STATUS_OK)
        #expect(call.json?["path"] == "notes/todo.txt")
    }

    @Test func missingFilesAndBadOffsetsAreNamed() async {
        let missing = await call("files.read", ["path": "nope.txt"])
        #expect(missing.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(missing.json?["message"]?.stringValue?.contains("does not exist below the root") == true)
        let offset = await call("files.read", ["path": "notes/todo.txt", "offset": 1000])
        #expect(offset.json?["field"] == "/offset")
    }

    @Test func refusesPipesInsteadOfBlockingOnThem() async throws {
        try #require(mkfifo(root + "/pipe", 0o600) == 0)
        let call = await call("files.read", ["path": "pipe"])
        #expect(call.status == SKILL_STATUS_INVALID_ARGUMENTS)
        #expect(call.json?["message"]?.stringValue?.contains("not a regular file") == true, "\(call.text)")
    }

    @Test func aMissingRootSaysHowToConfigureIt() async {
        let missing = await call("files.list", [:], root: root + "/does-not-exist")
        #expect(missing.status == SKILL_STATUS_FAILED)
        #expect(missing.json?["remedy"]?.stringValue?.contains("plugins.files.config.root") == true, "\(missing.text)")
        let relative = await call("files.list", [:], root: "relative/root")
        #expect(relative.json?["message"]?.stringValue?.contains("not an absolute path") == true)
    }

    @Test func searchesByNameGlob() async {
        let call = await call("files.search", ["name": "*.MD"])
        #expect(call.status == SKILL_STATUS_OK, "\(call.text)")
        #expect(call.json?["matches"]?.arrayValue?.compactMap { $0["path"]?.stringValue } == ["notes/deep/plan.md"])
    }

    @Test func searchesContentBySubstringAndRegexWithoutLeavingTheRoot() async {
        let substring = await call("files.search", ["contains": "INVOICE"])
        #expect(
            substring.json?["matches"]?.arrayValue?.compactMap { $0["path"]?.stringValue }
                == ["notes/todo.txt", "notes/deep/plan.md"])
        #expect(substring.json?["matches"]?.arrayValue?.first?["line_number"] == 2)
        let regex = await call("files.search", ["regex": "^(secret|invoice [0-9]{4})"])
        #expect(regex.json?["matches"]?.arrayValue?.compactMap { $0["line"]?.stringValue } == ["Invoice 2026-11 is due."])
        #expect(regex.text.contains("secret") == false, "the symlinked folder outside the root is not searched")
    }

    @Test func searchStopsAtItsBoundsAndSaysWhich() async {
        let files = await call("files.search", ["name": "*", "max_files": 2])
        #expect(files.json?["stopped_by"] == "max_files")
        #expect(files.json?["files_scanned"] == 2)
        let results = await call("files.search", ["name": "*.txt", "max_results": 1])
        #expect(results.json?["stopped_by"] == "max_results")
        #expect(results.json?["count"] == 1)
    }

    @Test func searchRefusesBadRequests() async {
        let nothing = await call("files.search", [:])
        #expect(nothing.status == SKILL_STATUS_INVALID_ARGUMENTS)
        let both = await call("files.search", ["contains": "a", "regex": "a"])
        #expect(both.json?["field"] == "/regex")
        let broken = await call("files.search", ["regex": "(unclosed"])
        #expect(broken.json?["field"] == "/regex")
        #expect(broken.json?["message"]?.stringValue?.contains("does not compile") == true)
    }
}
