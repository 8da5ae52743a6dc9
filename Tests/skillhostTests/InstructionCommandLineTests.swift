import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The instruction skill commands through the built `skillhost` binary: wording and exit codes.
@Suite("Instruction skill commands")
struct InstructionCommandLineTests {
    /// An activation is traced under the instruction skill's id, as its call card shows it, not as
    /// `activate_skill`.
    @Test func anActivationIsTracedUnderTheSkillsID() throws {
        let root = HostTestSupport.temporaryDirectory("cli-skills")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let skills = ["--skills", root + "/skills"]
        let added = try HostTestSupport.skillhost(["add", HostTestSupport.packageRoot + "/Plugins/Instructions/time-zones"] + skills, root: root)
        #expect(added.status == 0, "\(added.stderr)")
        let chat = try HostTestSupport.skillhost(
            ["chat", "--offline", "how should I plan a meeting across time zones for my team?"] + skills, root: root)
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stdout.contains("[ok] time-zones"), "\(chat.stdout)")
        let trace = try HostTestSupport.skillhost(["trace", "--json"] + skills, root: root)
        let calls = try #require(try JSONValue(parsing: trace.stdout).arrayValue)
        #expect(calls.map { $0["skill"] } == ["time-zones"])
        let bySkill = try HostTestSupport.skillhost(["trace", "--skill", "time-zones"] + skills, root: root)
        #expect(bySkill.stdout.contains("succeeded   time-zones"), "\(bySkill.stdout)")
    }

    @Test func validateAddInspectRemoveThroughTheCLI() throws {
        let root = HostTestSupport.temporaryDirectory("cli-skills")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let skills = ["--skills", root + "/skills"]
        let good = HostTestSupport.packageRoot + "/Plugins/Instructions/time-zones"

        let valid = try HostTestSupport.skillhost(["validate", good] + skills, root: root)
        #expect(valid.status == 0)
        #expect(valid.stdout == "Valid skill: \(good)\n")
        let viaFile = try HostTestSupport.skillhost(["validate", good + "/SKILL.md", "--json"] + skills, root: root)
        #expect(try JSONValue(parsing: viaFile.stdout)["valid"] == true)

        try HostTestSupport.write("---\nname: Bad--Name\ndescription: d\n---\n", to: root + "/src/bad/SKILL.md")
        let invalid = try HostTestSupport.skillhost(["validate", root + "/src/bad"] + skills, root: root)
        #expect(invalid.status == 9)
        #expect(invalid.stderr.contains("Validation failed for \(root)/src/bad:"))
        #expect(invalid.stderr.contains("  - Skill name 'Bad--Name' must be lowercase"))
        #expect(invalid.stderr.contains("  - Directory name 'bad' must match skill name 'Bad--Name'"))

        let refused = try HostTestSupport.skillhost(["add", root + "/src/bad"] + skills, root: root)
        #expect(refused.status == 9)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root + "/skills")) ?? []
        #expect(left.filter { !$0.hasSuffix(".lock") }.isEmpty)

        let added = try HostTestSupport.skillhost(["add", good] + skills, root: root)
        #expect(added.status == 0)
        #expect(added.stdout.hasPrefix("added instruction skill time-zones"))
        let again = try HostTestSupport.skillhost(["add", good] + skills, root: root)
        #expect(again.status == 12)

        let inspected = try HostTestSupport.skillhost(["inspect", "time-zones", "--json"] + skills, root: root)
        #expect(inspected.status == 0)
        let detail = try JSONValue(parsing: inspected.stdout)
        #expect(detail["kind"] == "instructions")
        #expect(detail["frontmatter"]?["license"] == "Apache-2.0")
        #expect((detail["body_lines"]?.intValue ?? 0) > 20)
        let file = try #require(detail["files"]?.arrayValue?.first)
        #expect(file["path"] == "SKILL.md")
        #expect(file["sha256"]?.stringValue?.count == 64)

        let disabled = try HostTestSupport.skillhost(["disable", "time-zones"] + skills, root: root)
        #expect(disabled.stdout == "disabled instruction skill time-zones\n")
        let listed = try JSONValue(parsing: try HostTestSupport.skillhost(["list", "--json"] + skills, root: root).stdout)
        #expect(listed["plugins"]?.arrayValue?.first { $0["id"] == "time-zones" }?["status"] == "disabled")

        #expect(try HostTestSupport.skillhost(["remove", "time-zones"] + skills, root: root).status == 0)
        #expect(try HostTestSupport.skillhost(["remove", "time-zones"] + skills, root: root).status == 3)
        #expect(!FileManager.default.fileExists(atPath: root + "/skills/time-zones"))
    }
}

/// `skillhost trust --folder` and project skills through the binary, run in the project folder.
@Suite("Instruction project skills through the CLI")
struct InstructionProjectCommandLineTests {
    @Test func trustingTheWorkingFolderLoadsItsSkillsAndRevokeUndoes() throws {
        let root = HostTestSupport.temporaryDirectory("cli-project")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let project = root + "/project"
        try HostTestSupport.write("---\nname: lint\ndescription: Lints this project.\n---\nLint.\n", to: project + "/.agents/skills/lint/SKILL.md")
        func run(_ words: [String]) throws -> HostTestSupport.ProcessResult {
            try HostTestSupport.skillhost(["--skills", root + "/skills"] + words, root: root, in: project)
        }
        let before = try run(["list"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(!before.stdout.contains("lint"), "\(before.stdout)")
        #expect(before.stdout.contains("note: the project skills in \(project) (.agents/skills, .claude/skills) are not loaded: the folder is not trusted; after reading them, run 'skillhost trust --folder \(project)' to load them"), "\(before.stdout)")

        let trusted = try run(["trust", "--folder", "."])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout == "trusted folder \(project): its skills in \(project)/.agents/skills load in commands run there; undo with 'skillhost trust --folder \(project) --revoke'\n")
        let after = try run(["list", "--json"])
        let entries = try #require(try JSONValue(parsing: after.stdout)["plugins"]?.arrayValue)
        #expect(entries.first { $0["id"] == "lint" }?["scope"] == "project", "\(after.stdout)")
        #expect(try run(["inspect", "lint"]).stdout.contains("path:        \(project)/.agents/skills/lint"))

        let revoked = try run(["trust", "--folder", project, "--revoke", "--json"])
        #expect(try JSONValue(parsing: revoked.stdout) == ["folder": .string(project), "trusted": false, "was_trusted": true, "skill_folders": [.string(project + "/.agents/skills")]])
        #expect(!(try run(["list"]).stdout.contains("lint ")))

        // Wrong arguments: one line each, exit 2 (usage) or 3 (not a folder).
        let cases: [([String], Int32, String)] = [
            (["trust", "--folder"], 2, "--folder"),
            (["trust", "clock", "--folder", "."], 2, "--folder takes the folder as its value, with no PLUGIN_ID"),
            (["trust", "--revoke"], 2, "--revoke goes with --folder PATH"),
            (["trust", "--folder", root + "/nowhere"], 3, "\(root)/nowhere is not a folder"),
        ]
        for (words, status, says) in cases {
            let result = try run(words)
            #expect(result.status == status, "\(words): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(words): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(words): \(result.stderr)")
        }
    }

    /// `skillhost set` for an instruction skill's scripts, as a user types it; list and inspect show it.
    @Test func setShowsInListAndInspectAndRefusesBadWordsInOneLine() throws {
        let root = HostTestSupport.temporaryDirectory("cli-set")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let skills = ["--skills", root + "/skills"]
        let fixture = HostTestSupport.packageRoot + "/Tests/Fixtures/ScriptSkills/report-maker"
        #expect(try HostTestSupport.skillhost(["add", fixture] + skills, root: root).status == 0)
        let set = try HostTestSupport.skillhost(["set", "report-maker", "permission", "read"] + skills, root: root)
        #expect(set.stdout == "set plugins.report-maker.permission = \"read\" (was: not set)\n", "\(set.stderr)")
        #expect(try HostTestSupport.skillhost(["list"] + skills, root: root).stdout.contains("  scripts: permission read, approval allow"))
        let inspected = try HostTestSupport.skillhost(["inspect", "report-maker", "--json"] + skills, root: root)
        #expect(try JSONValue(parsing: inspected.stdout)["scripts"] == ["permission": "read", "approval": "allow"])
        let cases: [([String], Int32, String)] = [
            (["set", "report-maker", "permission"], 2, "expected ID KEY VALUE"),
            (["set", "report-maker", "permission", "all"], 5, "\"all\" is not a value of permission; use read, write, dangerous"),
            (["set", "report-maker", "colour", "red"], 5, "\"colour\" is not a setting"),
            (["set", "report-makr", "approval", "allow"], 3, "did you mean \"report-maker\""),
        ]
        for (words, status, says) in cases {
            let result = try HostTestSupport.skillhost(words + skills, root: root)
            #expect(result.status == status, "\(words): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(words): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(words): \(result.stderr)")
        }
    }
}
