import Foundation
@testable import SkillHostCore
import SkillJSON
import Testing

/// Our validator against the reference one (`skills-ref` from PyPI, installed into `.build/peers/skills-ref`
/// by this test): on every folder of the corpus both agree on valid or not, and on the messages (YAML
/// syntax errors only on their common prefix, since strictyaml's own text spans several lines).
@Suite("skills-ref agreement")
struct SkillsRefAgreementTests {
    /// One corpus folder: its name and its `SKILL.md` text (nil: no `SKILL.md`).
    struct Case: Sendable {
        var folder: String
        var skill: String?
        var fileName = "SKILL.md"
    }

    static func skill(_ frontmatter: String, body: String = "# Instructions\n\nDo the thing.\n") -> String {
        "---\n" + frontmatter + "\n---\n" + body
    }

    static let longName = String(repeating: "a", count: 65)
    static let corpus: [Case] = [
        // Good ones.
        Case(folder: "minimal", skill: skill("name: minimal\ndescription: Does one thing.")),
        Case(folder: "all-fields", skill: skill("""
            name: all-fields
            description: Uses every field of the specification.
            license: Apache-2.0
            compatibility: Requires git and network access
            metadata:
              author: example-org
              version: "1.0"
            allowed-tools: Bash(git:*) Read
            """)),
        Case(folder: "tool-list", skill: skill("name: tool-list\ndescription: Lists tools.\nallowed-tools:\n  - Read\n  - Write")),
        Case(folder: "folded", skill: skill("name: folded\ndescription: >\n  A folded\n  description.")),
        Case(folder: "literal", skill: skill("name: literal\ndescription: |\n  Line one.\n  Line two.")),
        Case(folder: "double-quoted", skill: skill("name: \"double-quoted\"\ndescription: \"Say \\\"hi\\\".\"")),
        Case(folder: "single-quoted", skill: skill("name: 'single-quoted'\ndescription: 'It''s quoted.'")),
        Case(folder: "café", skill: skill("name: café\ndescription: Unicode letters are letters.")),
        Case(folder: "pdf2text", skill: skill("name: pdf2text\ndescription: Digits are fine.")),
        Case(folder: "commented", skill: skill("# a comment\nname: commented # trailing\ndescription: Comments are ignored.")),
        Case(folder: "crlf", skill: skill("name: crlf\ndescription: Windows line ends.").replacingOccurrences(of: "\n", with: "\r\n")),
        Case(folder: "continued", skill: skill("name: continued\ndescription: A plain description\n  continued on a second line.")),
        Case(folder: "lowercase-file", skill: skill("name: lowercase-file\ndescription: skill.md is accepted."), fileName: "skill.md"),
        Case(folder: "file", skill: skill("name: \u{FB01}le\ndescription: NFKC turns the ligature into f and i.")),
        Case(folder: "padded", skill: skill("name: \"  padded  \"\ndescription: Spaces around the name are stripped.")),
        Case(folder: "numeric-values", skill: skill("name: numeric-values\ndescription: 42\nlicense: 1.10\nmetadata:\n  count: 3")),
        Case(folder: "x", skill: skill("name: x\ndescription: One letter.")),
        Case(folder: String(repeating: "b", count: 64), skill: skill("name: \(String(repeating: "b", count: 64))\ndescription: Longest name.")),
        Case(folder: "long-description", skill: skill("name: long-description\ndescription: \(String(repeating: "d", count: 1024))")),
        Case(folder: "long-compat", skill: skill("name: long-compat\ndescription: d\ncompatibility: \(String(repeating: "c", count: 500))")),
        Case(folder: "empty-body", skill: "---\nname: empty-body\ndescription: No body.\n---\n"),
        // One mutation per rule.
        Case(folder: "no-skill-file", skill: nil),
        Case(folder: "no-frontmatter", skill: "# Just Markdown\n\nname: no-frontmatter\n"),
        Case(folder: "never-closed", skill: "---\nname: never-closed\ndescription: The fence never closes.\n"),
        Case(folder: "anchor", skill: skill("name: &n anchor\ndescription: Anchors are refused.")),
        Case(folder: "duplicate-key", skill: skill("name: duplicate-key\nname: duplicate-key\ndescription: d")),
        Case(folder: "flow-list", skill: skill("name: flow-list\ndescription: d\nallowed-tools: [Read, Write]")),
        Case(folder: "flow-map", skill: skill("name: flow-map\ndescription: d\nmetadata: {}")),
        Case(folder: "colon-in-value", skill: skill("name: colon-in-value\ndescription: Use when: never")),
        Case(folder: "scalar-frontmatter", skill: skill("just text")),
        Case(folder: "list-frontmatter", skill: skill("- a\n- b")),
        Case(folder: "empty-frontmatter", skill: "---\n---\nBody.\n"),
        Case(folder: "unexpected-field", skill: skill("name: unexpected-field\ndescription: d\nversion: 1.0\nauthor: me")),
        Case(folder: "missing-name", skill: skill("description: No name.")),
        Case(folder: "missing-description", skill: skill("name: missing-description")),
        Case(folder: "empty-name", skill: skill("name:\ndescription: d")),
        Case(folder: "empty-description", skill: skill("name: empty-description\ndescription: \"  \"")),
        Case(folder: longName, skill: skill("name: \(longName)\ndescription: d")),
        Case(folder: "Upper-Case", skill: skill("name: Upper-Case\ndescription: d")),
        Case(folder: "-leading", skill: skill("name: -leading\ndescription: d")),
        Case(folder: "trailing-", skill: skill("name: trailing-\ndescription: d")),
        Case(folder: "double--hyphen", skill: skill("name: double--hyphen\ndescription: d")),
        Case(folder: "under_score", skill: skill("name: under_score\ndescription: d")),
        Case(folder: "folder-differs", skill: skill("name: other-name\ndescription: d")),
        Case(folder: "too-long-description", skill: skill("name: too-long-description\ndescription: \(String(repeating: "d", count: 1025))")),
        Case(folder: "too-long-compat", skill: skill("name: too-long-compat\ndescription: d\ncompatibility: \(String(repeating: "c", count: 501))")),
        Case(folder: "compat-list", skill: skill("name: compat-list\ndescription: d\ncompatibility:\n  - linux")),
        Case(folder: "name-list", skill: skill("name:\n  - name-list\ndescription: d")),
        Case(folder: "description-map", skill: skill("name: description-map\ndescription:\n  text: d")),
        Case(folder: "Many--Problems-", skill: skill("name: Many--Problems-\ndescription: d\nextra: x")),
        Case(folder: "tab-indent", skill: skill("name: tab-indent\ndescription: d\nmetadata:\n\tauthor: me")),
    ]

    /// Writes the corpus into a fresh folder; returns the folder.
    static func writeCorpus() throws -> String {
        let root = HostTestSupport.temporaryDirectory("skills-corpus")
        for entry in corpus {
            let folder = root + "/" + entry.folder
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if let text = entry.skill {
                try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + entry.fileName))
            }
        }
        return root
    }

    /// The reference validator's Python, installed on first use.
    static func referencePython() throws -> String {
        try PythonVirtualEnvironment(name: "skills-ref", packages: ["skills-ref"], probe: "import skills_ref.validator").python()
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        try TestProcess.output(executable, arguments)
    }

    /// The reference's errors for every folder, in one Python run.
    static func referenceErrors(root: String, folders: [String]) throws -> [String: [String]] {
        let script = """
            import json, sys
            from pathlib import Path
            from skills_ref.validator import validate
            for name in sys.argv[2:]:
                print(json.dumps({"folder": name, "errors": validate(Path(sys.argv[1]) / name)}))
            """
        let output = try run(try referencePython(), ["-c", script, root] + folders)
        var result: [String: [String]] = [:]
        for line in output.split(separator: "\n") {
            let value = try JSONValue(parsing: String(line))
            result[value["folder"]!.stringValue!] = value["errors"]!.arrayValue!.map { $0.stringValue! }
        }
        return result
    }

    static func comparable(_ message: String) -> String {
        message.hasPrefix("Invalid YAML in frontmatter:") ? "Invalid YAML in frontmatter:" : message
    }

    @Test func bothValidatorsAgreeOnTheCorpus() throws {
        #expect(Self.corpus.count >= 40)
        let root = try Self.writeCorpus()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let reference = try Self.referenceErrors(root: root, folders: Self.corpus.map(\.folder))
        var valid = 0
        for entry in Self.corpus {
            let ours = InstructionSkillValidator.validate(folder: root + "/" + entry.folder)
            let theirs = try #require(reference[entry.folder], "no reference result for \(entry.folder)")
            #expect(ours.isEmpty == theirs.isEmpty, "\(entry.folder): ours \(ours), reference \(theirs)")
            #expect(ours.map(Self.comparable) == theirs.map(Self.comparable),
                "\(entry.folder): ours \(ours), reference \(theirs)")
            if theirs.isEmpty { valid += 1 }
        }
        #expect(valid >= 15 && valid < Self.corpus.count - 20, "valid \(valid) of \(Self.corpus.count)")
    }
}
