import SkillHostCore
import SkillJSON
import Testing

/// The `allowed-tools` frontmatter field mapped onto our tools (``AllowedTools``): the spec's shell entries
/// onto this skill's scripts, tool names onto ours, the rest ignored with a one-line warning.
@Suite("Instruction allowed-tools")
struct InstructionAllowedToolsTests {
    static func tools(_ field: JSONValue, known: Set<String>? = nil, scripts: Set<String>? = nil) -> AllowedTools {
        AllowedTools(frontmatter: ["name": "pdf", AllowedTools.key: field], knownTools: known, scripts: scripts)
    }

    static func call(_ path: String, _ args: [String] = [], skill: String = "pdf") -> JSONValue {
        ["name": .string(skill), "path": .string(path), "args": .array(args.map(JSONValue.string))]
    }

    @Test func shellEntriesMapOntoThisSkillsScripts() {
        let allowed = Self.tools("Bash(python3 scripts/fill.py:*) Bash(./scripts/check.sh --quick), Bash(bash ${CLAUDE_SKILL_DIR}/scripts/tools/* *)")
        #expect(allowed.entries.map(\.grant) == [
            .script(path: "scripts/fill.py", arguments: [], more: true),
            .script(path: "scripts/check.sh", arguments: ["--quick"], more: false),
            .script(path: "scripts/tools/*", arguments: [], more: true),
        ])
        let run = ScriptPolicy.toolID
        #expect(allowed.approves(toolID: run, arguments: Self.call("scripts/fill.py", ["a.pdf", "out.pdf"]), skill: "pdf"))
        #expect(allowed.approves(toolID: run, arguments: Self.call("./scripts/fill.py"), skill: "pdf"))
        #expect(allowed.approves(toolID: run, arguments: Self.call("scripts/check.sh", ["--quick"]), skill: "pdf"))
        #expect(!allowed.approves(toolID: run, arguments: Self.call("scripts/check.sh", ["--quick", "--fix"]), skill: "pdf"), "exact arguments")
        #expect(!allowed.approves(toolID: run, arguments: Self.call("scripts/check.sh"), skill: "pdf"))
        #expect(allowed.approves(toolID: run, arguments: Self.call("scripts/tools/a.py", ["x"]), skill: "pdf"))
        #expect(!allowed.approves(toolID: run, arguments: Self.call("scripts/other.py"), skill: "pdf"))
        // Only this skill's scripts: another skill of the same script path is not pre-approved.
        #expect(!allowed.approves(toolID: run, arguments: Self.call("scripts/fill.py", skill: "docx"), skill: "pdf"))
        #expect(!allowed.approves(toolID: "files.write", arguments: [:], skill: "pdf"))
    }

    @Test func bareShellAndOurToolNameCoverEveryScriptOfThisSkill() {
        for field: JSONValue in ["Bash", "Bash(*)", "run_skill_script", ["run_skill_script"]] {
            let allowed = Self.tools(field)
            #expect(allowed.entries.map(\.grant) == [.script(path: "", arguments: [], more: true)], "\(field)")
            #expect(allowed.approves(toolID: ScriptPolicy.toolID, arguments: Self.call("scripts/any.sh", ["1"]), skill: "pdf"))
        }
        let one = Self.tools("run_skill_script(scripts/fill.py)")
        #expect(one.approves(toolID: ScriptPolicy.toolID, arguments: Self.call("scripts/fill.py", ["x"]), skill: "pdf"))
        #expect(!one.approves(toolID: ScriptPolicy.toolID, arguments: Self.call("scripts/other.py"), skill: "pdf"))
    }

    @Test func ourToolsByIdNameOrMCPSpelling() {
        let known = AllowedTools.names("files.write").union(AllowedTools.names("clock.now"))
        let allowed = Self.tools("files_write mcp__skillhost__clock.now Read(./docs/**) Grep", known: known)
        #expect(allowed.entries.map(\.grant) == [.tool("files_write"), .tool("clock.now"), .reading, .reading])
        #expect(allowed.warnings(skill: "pdf").isEmpty)
        #expect(allowed.approves(toolID: "files.write", arguments: [:], skill: "pdf"))
        #expect(allowed.approves(toolID: "clock.now", arguments: [:], skill: "pdf"))
        #expect(!allowed.approves(toolID: "files.delete", arguments: [:], skill: "pdf"))
        // A tool entry never covers the script tool.
        #expect(!Self.tools("run_skill_scripts").approves(toolID: ScriptPolicy.toolID, arguments: Self.call("scripts/a.py"), skill: "pdf"))
    }

    @Test func entriesThatNameNothingWeHaveAreIgnoredWithOneLineEach() {
        let allowed = Self.tools(
            "Bash(git:*) Bash(python3:*) Write WebFetch(domain:x.org) Bash(python3 scripts/gone.py:*) Bash(python3 scripts/fill.py:*)",
            known: ["clock.now"], scripts: ["scripts/fill.py"])
        let warnings = allowed.warnings(skill: "pdf")
        #expect(warnings == [
            "skill pdf: allowed-tools entry \"Bash(git:*)\" is ignored: it names the command \"git\", not a script of this skill under scripts/, and SkillHost has no shell tool",
            "skill pdf: allowed-tools entry \"Bash(python3:*)\" is ignored: it names an interpreter, not a script; name the script, e.g. Bash(python3 scripts/x.py:*)",
            "skill pdf: allowed-tools entry \"Write\" is ignored: SkillHost has no tool \"Write\"; name one of its tools (skillhost list) or this skill's scripts (Bash(python3 scripts/x.py:*))",
            "skill pdf: allowed-tools entry \"WebFetch(domain:x.org)\" is ignored: a pattern is understood only for Bash (this skill's scripts) and reading tools; list the tool by its name",
            "skill pdf: allowed-tools entry \"Bash(python3 scripts/gone.py:*)\" is ignored: this skill has no script scripts/gone.py",
        ])
        #expect(allowed.entries.last?.grant == .script(path: "scripts/fill.py", arguments: [], more: true))
        // Nothing ignored pre-approves anything.
        #expect(!allowed.approves(toolID: ScriptPolicy.toolID, arguments: Self.call("scripts/gone.py"), skill: "pdf"))
        // No field, an empty one, a number-like one: no entries.
        #expect(AllowedTools(frontmatter: ["name": "pdf"]).entries.isEmpty)
        #expect(Self.tools("  ").entries.isEmpty)
    }
}
