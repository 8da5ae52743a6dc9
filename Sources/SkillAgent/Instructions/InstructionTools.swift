import SkillCalls
import SkillHostCore
import SkillJSON

/// The two built-in tools through which a model reads instruction skills (progressive disclosure):
/// `activate_skill(name)` returns the body of `SKILL.md` and the list of bundled files;
/// `read_skill_file(name, path, offset)` returns one bundled text file, at most `fileLimit` bytes at a time.
public enum InstructionTools {
    /// Tool id (and name) of the activation tool.
    public static let activate = "activate_skill"
    /// Tool id (and name) of the file reading tool.
    public static let readFile = "read_skill_file"
    /// The session context key that lists the instruction skills activated in the session.
    public static let activatedKey = "skillhost.activated_skills"
    /// Most bytes `read_skill_file` returns in one call.
    public static let fileLimit = 16 << 10
    /// Most characters of a body `activate_skill` returns (the spec recommends bodies under 5,000 tokens,
    /// about 20,000 characters); the rest is read with `read_skill_file`.
    public static let bodyLimit = 64 << 10

    /// Whether results of this tool go to the model untrimmed (they are capped by the tool itself).
    static func keepsWholeResult(_ skillID: String?) -> Bool { skillID == activate || skillID == readFile }
    /// What the model is told about a skill's bundled scripts.
    public static let scriptsHint =
        "run a script with \(ScriptToolBackend.toolID) {name, path, args, stdin}: it runs sandboxed, the session's workspace is its working folder and the only place it writes; read a script with \(readFile) to see its options"

    /// The tools for these enabled skills (none when there are none).
    public static func tools(for skills: [(name: String, description: String)]) -> [SkillTool] {
        guard !skills.isEmpty else { return [] }
        let names: JSONValue = .array(skills.map { .string($0.name) })
        let choices: JSONValue = .array(skills.map { ["const": .string($0.name), "description": .string($0.description)] })
        return [
            SkillTool(
                id: activate, title: "Activate an instruction skill",
                description: "Loads the full instructions of one of the available skills listed in the system prompt. Call it before a task that matches a skill's description, then follow the instructions.",
                parameters: [
                    "type": "object",
                    "properties": ["name": ["type": "string", "enum": names, "oneOf": choices, "description": "The skill's name"]],
                    "required": ["name"], "additionalProperties": false,
                ],
                permission: .read, timeout: 10, idempotent: true, summary: "Loaded the instructions of {name}."),
            SkillTool(
                id: readFile, title: "Read a file of an instruction skill",
                description: "Reads one file bundled with an activated skill (a path from its file list, relative to the skill folder), \(fileLimit) bytes at a time; pass offset to read on. Scripts are not run.",
                parameters: [
                    "type": "object",
                    "properties": [
                        "name": ["type": "string", "enum": names, "description": "The skill's name"],
                        "path": ["type": "string", "minLength": 1, "description": "File path relative to the skill folder, e.g. references/guide.md"],
                        "offset": ["type": "integer", "minimum": 0, "description": "Byte offset to start at (default 0)"],
                    ],
                    "required": ["name", "path"], "additionalProperties": false,
                ],
                permission: .read, timeout: 10, idempotent: true),
        ]
    }

    /// The system prompt section that lists the skills (name and description), or "" when there are none.
    public static func promptSection(for skills: [(name: String, description: String)]) -> String {
        guard !skills.isEmpty else { return "" }
        var lines = [
            "", "Instruction skills are available. Each teaches how to do a kind of task with the tools.",
            "When a request matches a skill's description, call \(activate) with its name first and follow the instructions it returns; read its files with \(readFile) when they say so.",
            "<available_skills>",
        ]
        for skill in skills {
            lines.append("<skill><name>\(skill.name)</name><description>\(skill.description)</description></skill>")
        }
        lines.append("</available_skills>")
        return lines.joined(separator: "\n")
    }

    /// The result of `activate_skill`.
    static func activation(_ skill: InstructionSkill) -> JSONValue {
        let files = skill.files.map(\.path).filter { $0 != "SKILL.md" && $0 != "skill.md" }
        var body = skill.body
        if body.count > bodyLimit {
            body = String(body.prefix(bodyLimit))
                + "\n\n[instructions cut at \(bodyLimit) characters; read the rest of SKILL.md with \(readFile)]"
        }
        var object: JSONObject = [
            "name": .string(skill.name), "instructions": .string(body),
            "files": .array(files.map(JSONValue.string)),
        ]
        if files.contains(where: { $0.hasPrefix("scripts/") }) {
            object["scripts"] = .string(scriptsHint)
        }
        return .object(object)
    }

    /// The result of `read_skill_file`: text from `offset`, cut at a UTF-8 boundary, and where to go on.
    static func fileChunk(path: String, offset: Int, bytes: [UInt8], size: Int64) throws(HostError) -> JSONValue {
        if bytes.prefix(8192).contains(0) {
            throw HostError(.invalidArguments, "\(path) is a binary file; only text files can be read")
        }
        var end = bytes.count
        if Int64(offset + end) < size {
            // Do not split a UTF-8 sequence at the cut.
            while end > 0, end > bytes.count - 4, bytes[end - 1] & 0xC0 == 0x80 { end -= 1 }
            if end > 0, bytes[end - 1] >= 0xC0 { end -= 1 }
        }
        let next = Int64(offset + end) < size ? JSONValue.int(Int64(offset + end)) : .null
        return [
            "path": .string(path), "offset": .int(Int64(offset)), "size": .int(size),
            "text": .string(String(decoding: bytes[0..<end], as: UTF8.self)), "next_offset": next,
        ]
    }
}

extension InstructionTools {
    /// For an `activate_skill` call, the id of the skill it activates (so events and cards name the skill);
    /// nil for any other call.
    static func activatedSkill(in call: ToolCall, skillID: String?) -> String? {
        guard skillID == activate, let name = (try? call.parsedArguments())?["name"]?.stringValue else { return nil }
        return Identifier.normalize(name)
    }
}
