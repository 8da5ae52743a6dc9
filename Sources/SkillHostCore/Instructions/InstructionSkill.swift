import SkillJSON

/// One file a skill folder bundles: its path relative to the folder, SHA-256 and size.
public struct BundledFile: Sendable, Equatable, Hashable {
    /// Path relative to the skill folder, `/`-separated (for example `references/zones.md`).
    public var path: String
    /// Lowercase hex SHA-256 of the bytes.
    public var sha256: String
    /// Size in bytes.
    public var size: Int64

    /// Creates a description of one file.
    public init(path: String, sha256: String, size: Int64) {
        self.path = path
        self.sha256 = sha256
        self.size = size
    }
}

/// An instruction skill (Agent Skills `SKILL.md` folder) read completely: what `inspect`, the agent's
/// `activate_skill` and an MCP server serve. Get one with ``SkillHost/instructionSkill(_:)``; read its
/// files with ``SkillHost/readInstructionFile(skill:path:offset:limit:)``.
public struct InstructionSkill: Sendable, Equatable {
    /// The skill's `name` (its id).
    public var name: String
    /// The frontmatter as JSON (an object; every scalar a string).
    public var frontmatter: JSONValue
    /// The Markdown body of `SKILL.md`, frontmatter stripped.
    public var body: String
    /// Absolute path of the skill folder.
    public var folder: String
    /// Every bundled file (`SKILL.md` included), sorted by path.
    public var files: [BundledFile]

    /// Creates a skill.
    public init(name: String, frontmatter: JSONValue, body: String, folder: String, files: [BundledFile]) {
        self.name = name
        self.frontmatter = frontmatter
        self.body = body
        self.folder = folder
        self.files = files
    }

    /// The frontmatter's description, or "".
    public var description: String { frontmatter["description"]?.stringValue ?? "" }

    /// The skill as `inspect ID --json` shows it.
    public var detailJSON: JSONValue {
        let lines = body.isEmpty ? 0 : body.split(separator: "\n", omittingEmptySubsequences: false).count
        return [
            "id": .string(name), "kind": "instructions", "path": .string(folder), "frontmatter": frontmatter,
            "body_lines": .int(Int64(lines)), "body_tokens": .int(Int64((body.utf8.count + 3) / 4)),
            "files": .array(files.map { ["path": .string($0.path), "sha256": .string($0.sha256), "size": .int($0.size)] }),
        ]
    }
}
