import SkillHostCore
import SkillJSON
import Testing

/// The Skills extension's entries as the host reads them (``MCPSkillEntry``) and its checks of what is read
/// (``MCPSkillVerifier``): each bad entry or read refused with its reason in one line.
@Suite struct MCPSkillEntryTests {
    static let body = Array("---\nname: notes\ndescription: Take notes\n---\n\nWrite them down.\n".utf8)

    static func entry(_ change: (inout JSONObject) -> Void = { _ in }) -> JSONValue {
        var object: JSONObject = [
            "uri": "skill://acme/notes/SKILL.md",
            "frontmatter": ["name": "notes", "description": "Take notes"],
            "resources": [["uri": "skill://acme/notes/SKILL.md", "digest": .string("sha256:" + FileDigest.sha256(of: body)), "size": .int(Int64(body.count))]],
        ]
        change(&object)
        return .object(object)
    }

    @Test func aGoodEntryIsNamedPerOriginAndVerifies() throws {
        let skill = try MCPSkillEntry(Self.entry(), server: "docs")
        #expect(skill.refusal == nil)
        #expect(skill.qualifiedName == "docs:acme/notes" && skill.name == "notes" && skill.rootURI == "skill://acme/notes")
        let file = try MCPSkillVerifier.listedFile("SKILL.md", of: skill)
        try MCPSkillVerifier.verify(Self.body, as: file, of: skill)
        #expect(try MCPSkillVerifier.document(Self.body, of: skill).body == "Write them down.")
        // Another scheme keeps it: the identity still holds both halves.
        let other = try MCPSkillEntry(Self.entry { $0["uri"] = "github://o/r/notes/SKILL.md"; $0["resources"] = "dynamic" }, server: "gh")
        #expect(other.qualifiedName == "gh:github://o/r/notes" && other.isDynamic)
    }

    static func bad(_ label: String, _ o: inout JSONObject) {
        let other = String(repeating: "a", count: 64)
        switch label {
        case "no resources": o["resources"] = nil
        case "resources a number": o["resources"] = 3
        case "name unlike the uri": o["frontmatter"] = ["name": "other", "description": "x"]
        case "no description": o["frontmatter"] = ["name": "notes"]
        case "file outside": o["resources"] = [["uri": "skill://elsewhere/x.md", "digest": .string("sha256:" + other), "size": 1]]
        case "dot-dot": o["resources"] = [["uri": "skill://acme/notes/../x.md", "digest": .string("sha256:" + other), "size": 1]]
        case "bad digest": o["resources"] = [["uri": "skill://acme/notes/SKILL.md", "digest": "md5:abc", "size": 1]]
        case "no size": o["resources"] = [["uri": "skill://acme/notes/SKILL.md", "digest": .string("sha256:" + other)]]
        default: o["resources"] = [["uri": "skill://acme/notes/a.md", "digest": .string("sha256:" + other), "size": 1]]
        }
    }

    @Test(arguments: [
        ("no resources", "its entry has no resources"),
        ("resources a number", "neither a list of files nor \"dynamic\""),
        ("name unlike the uri", "its uri ends in \"notes\" but its frontmatter's name is \"other\""),
        ("no description", "no name or description"),
        ("file outside", "is not inside the skill"),
        ("dot-dot", "'..' path segment"),
        ("bad digest", "has no digest \"sha256:<64 lowercase hex digits>\""),
        ("no size", "has no size"),
        ("no SKILL.md", "do not list its SKILL.md"),
    ])
    func aBadEntryIsRefusedInOneLine(_ label: String, _ expected: String) throws {
        let skill = try MCPSkillEntry(Self.entry { Self.bad(label, &$0) }, server: "docs")
        let refusal = skill.refusal ?? ""
        #expect(refusal.hasPrefix("MCP server docs's skill docs:acme/notes (skill://acme/notes/SKILL.md) is refused: ") && refusal.contains(expected), "\(label): \(refusal)")
        #expect(!refusal.contains("\n"))
    }

    @Test func notAnEntryAtAllIsAnError() {
        #expect(throws: HostError.self) { try MCPSkillEntry(["uri": "skill://x/README.md"], server: "docs") }
    }

    @Test func readsThatDifferFromTheEntryAreRefused() throws {
        let skill = try MCPSkillEntry(Self.entry(), server: "docs")
        let file = try MCPSkillVerifier.listedFile("SKILL.md", of: skill)
        var tampered = Self.body
        tampered[tampered.count - 2] = UInt8(ascii: "X")
        #expect(throws: HostError.self) { try MCPSkillVerifier.verify(tampered, as: file, of: skill) }
        #expect(throws: HostError.self) { try MCPSkillVerifier.verify(Self.body + [10], as: file, of: skill) }
        #expect(throws: HostError.self) { try MCPSkillVerifier.listedFile("references/x.md", of: skill) }
        let other = Array("---\nname: notes\ndescription: Something else\n---\nx\n".utf8)
        do {
            _ = try MCPSkillVerifier.document(other, of: skill)
            Issue.record("a different frontmatter was accepted")
        } catch {
            #expect(error.message.contains("differs from its entry's at \"description\""), "\(error.message)")
        }
        // A YAML scalar equals the JSON number or boolean it spells.
        let typed = try MCPSkillEntry(Self.entry { $0["frontmatter"] = ["name": "notes", "description": "Take notes", "metadata": ["version": 2]] }, server: "docs")
        #expect(throws: Never.self) {
            _ = try MCPSkillVerifier.document(Array("---\nname: notes\ndescription: Take notes\nmetadata:\n  version: \"2\"\n---\nx\n".utf8), of: typed)
        }
    }

    @Test func nestedSkillsAreMarked() throws {
        var entries = [
            try MCPSkillEntry(Self.entry(), server: "docs"),
            try MCPSkillEntry(["uri": "skill://acme/notes/inner/SKILL.md", "frontmatter": ["name": "inner", "description": "d"], "resources": "dynamic"], server: "docs"),
        ]
        MCPSkillEntry.markNesting(&entries)
        #expect(entries[0].nestedIn == nil && entries[1].nestedIn == "docs:acme/notes")
    }
}
