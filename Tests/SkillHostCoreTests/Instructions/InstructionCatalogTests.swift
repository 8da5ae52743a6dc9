import Foundation
@testable import SkillHostCore
import SkillJSON
import Testing

/// The skills folder in the catalog: discovery, cache, ids shared with plugins, enable/disable, inspect,
/// add/remove, and bad input listed `invalid` with one-line reasons.
@Suite("Instruction skills in the catalog")
struct InstructionCatalogTests {
    static func writeSkill(_ name: String, in skills: String, description: String = "Helps with things.",
                           body: String = "# Steps\n\n1. First.\n2. Second.\n", extra: [String: String] = [:]) throws {
        let folder = skills + "/" + name
        try HostTestSupport.write("---\nname: \(name)\ndescription: \(description)\n---\n\n" + body, to: folder + "/SKILL.md")
        for (path, text) in extra { try HostTestSupport.write(text, to: folder + "/" + path) }
    }

    func host() throws -> (SkillHost, String) {
        let (host, root) = try HostTestSupport.makeHost()
        try FileManager.default.createDirectory(atPath: root + "/skills", withIntermediateDirectories: true)
        return (host, root)
    }

    @Test func skillsAreListedWithKindAndShareTheRegistry() throws {
        let (host, root) = try host()
        try Self.writeSkill("time-zones", in: root + "/skills", extra: ["references/zones.md": "UTC\n"])
        let catalog = try host.catalog()
        let record = try #require(catalog.instruction("Time-Zones"))
        #expect(record.status == .ok)
        #expect(record.description == "Helps with things.")
        #expect(record.bodyLines == 4)
        let entry = try #require(catalog.json["plugins"]?.arrayValue?.first { $0["id"] == "time-zones" })
        #expect(entry["kind"] == "instructions")
        #expect(entry["status"] == "ok")

        try host.setEnabled(["time-zones"], false)
        #expect(try host.catalog().instruction("time-zones")?.status == .disabled)
        let registry = try String(contentsOfFile: root + "/config/skill_registry.json", encoding: .utf8)
        #expect(registry.contains("time-zones"))
        try host.setEnabled(["time-zones"], true)
        #expect(try host.catalog().instruction("time-zones")?.status == .ok)
    }

    @Test func inspectGivesFrontmatterBodyAndFilesWithDigests() throws {
        let (host, root) = try host()
        try Self.writeSkill("pdf-notes", in: root + "/skills", extra: ["references/a.md": "abc"])
        let skill = try host.instructionSkill("pdf-notes")
        #expect(skill.name == "pdf-notes")
        #expect(skill.frontmatter["description"] == "Helps with things.")
        #expect(skill.body.hasPrefix("# Steps"))
        #expect(skill.files.map(\.path) == ["SKILL.md", "references/a.md"])
        let file = try #require(skill.files.last)
        #expect(file.size == 3)
        #expect(file.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let read = try host.readInstructionFile(skill: "pdf-notes", path: "references/a.md", offset: 1, limit: 1)
        #expect(read.bytes == Array("b".utf8))
        #expect(read.size == 3)
    }

    @Test func readingFilesIsConfinedToTheSkillFolder() throws {
        let (host, root) = try host()
        try Self.writeSkill("confined", in: root + "/skills")
        try HostTestSupport.write("secret", to: root + "/secret.txt")
        for path in ["../secret.txt", "/etc/passwd", "references/../../secret.txt"] {
            #expect(throws: HostError.self) { try host.readInstructionFile(skill: "confined", path: path) }
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/skills/confined/out.txt", withDestinationPath: root + "/secret.txt")
        // An escaping link makes the folder invalid, and is refused for reading.
        #expect(try host.catalog().instruction("confined")?.status == .invalid)
        #expect(throws: HostError.self) { try host.readInstructionFile(skill: "confined", path: "out.txt") }
        #expect(throws: HostError.self) {
            try InstructionFilePath.resolve("out.txt", inFolder: root + "/skills/confined", skill: "confined")
        }
    }

    @Test func idClashWithAPluginIsReportedOnBothNamingBothPaths() throws {
        let (host, root) = try host()
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try Self.writeSkill("fixture", in: root + "/skills")
        let catalog = try host.catalog()
        let skill = try #require(catalog.instruction("fixture"))
        let plugin = try #require(catalog.plugin("fixture"))
        #expect(skill.status == .invalid)
        #expect(plugin.status == .invalid)
        for message in [skill.error ?? "", plugin.error ?? ""] {
            #expect(message.contains("duplicate id \"fixture\""))
            #expect(message.contains(root + "/skills/fixture"))
            #expect(message.contains(root + "/plugins/fixture.so"))
        }
    }

    @Test func unchangedSkillsComeFromTheCacheKeyedByFileVersion() throws {
        let (host, root) = try host()
        try Self.writeSkill("cached", in: root + "/skills")
        #expect(try host.catalog().instruction("cached")?.description == "Helps with things.")
        let cacheFile = root + "/cache/instructions_cache.json"
        let cache = try JSONValue(parsing: try String(contentsOfFile: cacheFile, encoding: .utf8))
        let entry = try #require(cache["entries"]?[root + "/skills/cached/SKILL.md"])
        #expect(entry["inode"] != nil && entry["mtime_ns"] != nil && entry["size"] != nil)
        // A cache entry whose key still matches is used as is (proved by editing the cached description).
        var edited = try #require(cache.objectValue)
        var entries = try #require(edited["entries"]?.objectValue)
        var member = try #require(entry.objectValue)
        member["frontmatter"] = ["name": "cached", "description": "From the cache."]
        entries[root + "/skills/cached/SKILL.md"] = .object(member)
        edited["entries"] = .object(entries)
        try JSONValue.object(edited).serialized().write(toFile: cacheFile, atomically: true, encoding: .utf8)
        #expect(try host.catalog().instruction("cached")?.description == "From the cache.")
        // A changed file (new size, mtime, inode) is read again.
        try Self.writeSkill("cached", in: root + "/skills", description: "Changed on disk.")
        #expect(try host.catalog().instruction("cached")?.description == "Changed on disk.")
    }

    /// Every kind of bad folder is listed invalid with a one-line reason; none hides the others or the
    /// good skill, and listing stays quick (no file is read whole, nothing blocks).
    @Test func badInputIsListedInvalidWithOneLineReasons() throws {
        let (host, root) = try host()
        let skills = root + "/skills"
        try Self.writeSkill("good", in: skills)
        // A 50 MiB SKILL.md.
        try FileManager.default.createDirectory(atPath: skills + "/huge", withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: skills + "/huge/SKILL.md", contents: Data("---\nname: huge\n".utf8)))
        let huge = try #require(FileHandle(forWritingAtPath: skills + "/huge/SKILL.md"))
        huge.truncateFile(atOffset: 50 << 20)
        huge.closeFile()
        // Binary garbage.
        try FileManager.default.createDirectory(atPath: skills + "/garbage", withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: 7)
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: skills + "/garbage/SKILL.md"))
        // Frontmatter that never closes.
        try HostTestSupport.write("---\nname: open\ndescription: never closed\n\n# Body\n", to: skills + "/open/SKILL.md")
        // Name differs from its folder.
        try HostTestSupport.write("---\nname: other\ndescription: d\n---\nBody\n", to: skills + "/mismatch/SKILL.md")
        // A symlink loop inside the folder.
        try Self.writeSkill("looped", in: skills)
        try FileManager.default.createSymbolicLink(atPath: skills + "/looped/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: skills + "/looped/b", withDestinationPath: "a")
        try Self.writeSkill("self-link", in: skills)
        try FileManager.default.createSymbolicLink(atPath: skills + "/self-link/again", withDestinationPath: ".")
        // A folder without SKILL.md.
        try HostTestSupport.write("notes", to: skills + "/empty/README.md")
        // A FIFO named SKILL.md must not block the listing.
        try FileManager.default.createDirectory(atPath: skills + "/fifo", withIntermediateDirectories: true)
        #expect(mkfifo(skills + "/fifo/SKILL.md", 0o644) == 0)

        let start = ContinuousClock.now
        let catalog = try host.catalog()
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(catalog.instruction("good")?.status == .ok)
        let expected: [String: String] = [
            "huge": "over the 1048576-byte limit",
            "garbage": "not UTF-8",
            "open": "SKILL.md frontmatter not properly closed with ---",
            "other": "Directory name 'mismatch' must match skill name 'other'",
            "looped": "symlink loop at a",
            "self-link": "symlink loop at again",
            "empty": "Missing required file: SKILL.md",
            "fifo": "not a regular file",
        ]
        for (id, words) in expected {
            let record = try #require(catalog.instruction(id), "no record \(id)")
            #expect(record.status == .invalid, "\(id)")
            let error = record.error ?? ""
            #expect(error.contains(words), "\(id): \(error)")
            #expect(!error.contains("\n"), "\(id): \(error)")
        }
        // The CLI lists them too, and `list` exits 0.
        let listed = try HostTestSupport.skillhost(["list", "--json", "--skills", skills], root: root)
        #expect(listed.status == 0)
        let entries = try #require(try JSONValue(parsing: listed.stdout)["plugins"]?.arrayValue)
        #expect(entries.filter { $0["kind"] == "instructions" }.count == 9)
    }

    @Test func addValidatesThenRenamesAndLeavesNothingBehindWhenInvalid() throws {
        let (host, root) = try host()
        let source = HostTestSupport.temporaryDirectory("skill-src")
        try Self.writeSkill("good-one", in: source, extra: ["scripts/run.sh": "echo hi\n"])
        try HostTestSupport.write("---\nname: Bad_Name\ndescription: d\n---\n", to: source + "/bad-one/SKILL.md")
        let record = try host.addSkill(from: source + "/good-one")
        #expect(record.id == "good-one")
        #expect(FileManager.default.fileExists(atPath: root + "/skills/good-one/scripts/run.sh"))
        #expect(throws: HostError.self) { try host.addSkill(from: source + "/good-one") }  // already installed
        do {
            try host.addSkill(from: source + "/bad-one")
            Issue.record("an invalid skill was installed")
        } catch {
            #expect(error.kind == .invalidPlugin)
            #expect(error.message.contains("must be lowercase"))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: root + "/skills").filter { !$0.hasSuffix(".lock") }
        #expect(left == ["good-one"])
        try host.removeSkill("good-one")
        #expect(!FileManager.default.fileExists(atPath: root + "/skills/good-one"))
        #expect(try host.catalog().instruction("good-one") == nil)
    }

    /// A deflated archive made by Info-ZIP, checked in (Tests/Fixtures/Skills/zip-notes.zip).
    @Test func addUnpacksACheckedInDeflatedZip() throws {
        let (host, root) = try host()
        let archive = HostTestSupport.packageRoot + "/Tests/Fixtures/Skills/zip-notes.zip"
        let record = try host.addSkill(from: archive)
        #expect(record.id == "zip-notes")
        #expect(record.status == .ok)
        let skill = try host.instructionSkill("zip-notes")
        #expect(skill.files.map(\.path) == ["SKILL.md", "references/long.md"])
        let long = try #require(skill.files.last)
        let expected = String(repeating: "A line that compresses well.\n", count: 300)
        #expect(long.size == Int64(expected.utf8.count))
        let read = try host.readInstructionFile(skill: "zip-notes", path: "references/long.md", limit: 1 << 20)
        #expect(read.bytes == Array(expected.utf8))
        #expect(FileManager.default.fileExists(atPath: root + "/skills/zip-notes/SKILL.md"))
    }

    @Test func corruptArchivesAreRefusedAndLeaveNothing() throws {
        let (host, root) = try host()
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: HostTestSupport.packageRoot + "/Tests/Fixtures/Skills/zip-notes.zip")))
        // The local header of references/long.md, found by its name; its deflated data follows name and extra.
        let name = Array("zip-notes/references/long.md".utf8)
        let nameAt = try #require((0..<(original.count - name.count)).first { Array(original[$0..<($0 + name.count)]) == name })
        let header = nameAt - 30
        let extraLength = Int(original[header + 28]) | Int(original[header + 29]) << 8
        let dataStart = nameAt + name.count + extraLength
        let end = original.count - 22
        var variants: [[UInt8]] = [Array(original[0..<(original.count / 2)])]  // truncated
        for position in [dataStart + 2, dataStart + 10, header + 14, end + 16, end + 10] {
            var bytes = original
            bytes[position] ^= 0x5A  // deflate data, local CRC, central directory offset, entry count
            variants.append(bytes)
        }
        let folder = HostTestSupport.temporaryDirectory("bad-zip")
        var installed: [Int] = []
        var kinds: [HostError.Kind] = []
        for (index, bytes) in variants.enumerated() {
            let path = folder + "/zip-notes-\(index).zip"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let outcome = Result { () throws(HostError) -> InstructionSkillRecord in try host.addSkill(from: path) }
            switch outcome {
            case .success(let record):
                installed.append(index)
                try host.removeSkill(record.id)
            case .failure(let error):
                kinds.append(error.kind)
            }
        }
        // A flipped local CRC is not read (the central directory's is): the content is still right.
        #expect(installed == [3])
        #expect(kinds == [HostError.Kind](repeating: .invalidPlugin, count: variants.count - 1))
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: folder + "/text.skill"))
        #expect(throws: HostError.self) { try host.addSkill(from: folder + "/text.skill") }
        let left = try FileManager.default.contentsOfDirectory(atPath: root + "/skills").filter { !$0.hasSuffix(".lock") }
        #expect(left.isEmpty)
    }

    @Test func addUnpacksZipAndSkillArchivesMadeByZip() throws {
        let zip = "/usr/bin/zip"
        guard FileManager.default.isExecutableFile(atPath: zip) else { return }  // the reader is tested on its own below
        let (host, _) = try host()
        let source = HostTestSupport.temporaryDirectory("skill-zip")
        try Self.writeSkill("zipped", in: source, body: String(repeating: "Compressible line.\n", count: 200),
                            extra: ["references/r.md": "reference\n"])
        let archive = source + "/zipped.skill"
        _ = try HostTestSupport.run("/bin/sh", ["-c", "cd '\(source)' && \(zip) -q -r zipped.skill zipped"])
        let record = try host.addSkill(from: archive)
        #expect(record.id == "zipped")
        let skill = try host.instructionSkill("zipped")
        #expect(skill.files.map(\.path) == ["SKILL.md", "references/r.md"])
        #expect(skill.body.contains("Compressible line."))
    }
}
