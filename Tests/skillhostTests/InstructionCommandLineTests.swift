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
