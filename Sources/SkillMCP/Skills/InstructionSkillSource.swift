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
    func skills() throws -> [InstructionSkill]
    /// The bytes of one file of a skill, by the file's relative path (`SKILL.md`, `references/a.md`).
    /// Throws when the skill or file does not exist (the server answers -32602).
    func read(skill name: String, file path: String) throws -> [UInt8]
    /// Files and folders whose change may change ``skills()`` (skill folders, the registry); the server
    /// polls their status and sends `notifications/resources/list_changed` when the listing changed.
    var watchedPaths: [String] { get }
}

/// One instruction skill as the source reports it.
public struct InstructionSkill: Sendable, Equatable {
    /// The frontmatter `name` (equal to the folder's name).
    public var name: String
    /// The `SKILL.md` frontmatter, every field the author wrote, as a JSON object.
    public var frontmatter: JSONValue
    /// The skill folder on disk.
    public var folder: String
    /// Every file of the skill, `SKILL.md` included, sorted by path.
    public var files: [InstructionSkillFile]

    /// A skill with these parts.
    public init(name: String, frontmatter: JSONValue, folder: String, files: [InstructionSkillFile]) {
        self.name = name
        self.frontmatter = frontmatter
        self.folder = folder
        self.files = files
    }
}

/// One file of an instruction skill.
public struct InstructionSkillFile: Sendable, Equatable {
    /// Path relative to the skill folder, `/`-separated, no `.` or `..` segments.
    public var path: String
    /// SHA-256 of the file's bytes, 64 lowercase hex digits.
    public var sha256: String
    /// Size in bytes.
    public var size: Int

    /// A file with these parts.
    public init(path: String, sha256: String, size: Int) {
        self.path = path
        self.sha256 = sha256
        self.size = size
    }
}

/// A source with no skills: what the CLI serves until instruction skills exist in SkillHostCore.
public struct EmptyInstructionSkillSource: InstructionSkillSource {
    /// The empty source.
    public init() {}
    public func skills() throws -> [InstructionSkill] { [] }
    public func read(skill name: String, file path: String) throws -> [UInt8] {
        throw JSONRPCError.invalidParams("no instruction skill \"\(name)\"")
    }
    public var watchedPaths: [String] { [] }
}
