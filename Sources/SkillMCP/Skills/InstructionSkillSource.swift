import SkillJSON

/// Where the instruction skills (`SKILL.md` folders) served through the MCP Skills extension come from.
/// SkillMCP defines this seam so it does not depend on how SkillHostCore discovers and validates skill
/// folders; the CLI passes the real source, tests a double, and ``EmptyInstructionSkillSource`` serves none.
///
/// Implementation requirements: thread-safe; calls may block on file I/O (the server calls them from
/// threads it owns, never from the cooperative pool); every entry's `name` is unique and follows the
/// Agent Skills name rules (it becomes the `skill://<name>/…` URI).
public protocol InstructionSkillSource: Sendable {
    /// The enabled skills, each with every one of its files (including `SKILL.md`).
    func skills() throws -> [MCPInstructionSkill]
    /// The bytes of one file of a skill, by the file's relative path (`SKILL.md`, `references/a.md`).
    /// Throws when the skill or file does not exist (the server answers -32602).
    func read(skill name: String, file path: String) throws -> [UInt8]
    /// Files and folders whose change may change ``skills()`` (skill folders, the registry); the server
    /// polls their status and sends `notifications/resources/list_changed` when the listing changed.
    var watchedPaths: [String] { get }
}
