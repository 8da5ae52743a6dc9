import SkillJSON

/// One instruction skill as the source reports it.
public struct MCPInstructionSkill: Sendable, Equatable {
    /// The frontmatter `name` (equal to the folder's name).
    public var name: String
    /// The `SKILL.md` frontmatter, every field the author wrote, as a JSON object.
    public var frontmatter: JSONValue
    /// The skill folder on disk.
    public var folder: String
    /// Every file of the skill, `SKILL.md` included, sorted by path.
    public var files: [MCPInstructionSkillFile]
    /// Its path under `skill://` (`skill://<path>/SKILL.md`): the name, or for a skill re-exported from an
    /// MCP server `<server>/<its path there>` (the origin stays in the URI; its last segment is the name).
    public var path: String

    /// A skill with these parts.
    public init(name: String, frontmatter: JSONValue, folder: String, files: [MCPInstructionSkillFile], path: String? = nil) {
        self.name = name
        self.path = path ?? name
        self.frontmatter = frontmatter
        self.folder = folder
        self.files = files
    }
}

/// One file of an instruction skill.
public struct MCPInstructionSkillFile: Sendable, Equatable {
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
