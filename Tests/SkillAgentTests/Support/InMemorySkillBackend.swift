import SkillCalls
import SkillAgent
import SkillHostCore
import SkillJSON
import Synchronization

/// The agent tests' skills: a ``MemoryBackend`` (what the host does around a skill: unknown, disabled, the
/// host's validator, approval by the registry's policy, the skill's deadline), built from closures over the
/// arguments. Records every call that reached a skill.
final class InMemorySkillBackend: SkillBackend {
    struct Skill: Sendable {
        var tool: SkillTool
        var enabled = true
        var body: @Sendable (JSONValue) async throws -> JSONValue
    }

    let memory: MemoryBackend

    init(_ skills: [Skill]) {
        memory = MemoryBackend(skills.map { skill in
            MemoryBackend.Skill(tool: skill.tool, enabled: skill.enabled) { arguments, _ in try await skill.body(arguments) }
        })
    }

    /// The calls that reached a skill's body, in arrival order.
    var invocations: [MemoryBackend.Invocation] { memory.invocations }
    /// The most calls that were running at once.
    var peakConcurrency: Int { memory.peakConcurrency }

    func tools() throws(HostError) -> [SkillTool] { try memory.tools() }
    func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        try memory.prepare(skillID: skillID, arguments: arguments)
    }
    func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        try await memory.run(call, options: options)
    }
}

/// An error a test skill throws.
struct SkillBodyError: Error, CustomStringConvertible {
    var description: String
}

/// The skills most tests use.
enum TestSkills {
    static let clockNow = InMemorySkillBackend.Skill(
        tool: SkillTool(
            id: "clock.now", title: "Current time", description: "The current time in a time zone.",
            parameters: [
                "type": "object", "properties": ["timezone": ["type": "string", "minLength": 1]],
                "required": ["timezone"], "additionalProperties": false,
            ],
            timeout: 5, idempotent: true,
            examples: ["what time is it in {timezone}", "current time in {timezone}"]),
        body: { arguments in
            let zone = arguments["timezone"]?.stringValue ?? "UTC"
            return ["timezone": .string(zone), "time": "2026-02-10T10:00:00+09:00", "summary": .string("10:00 in \(zone)")]
        })

    static let countWords = InMemorySkillBackend.Skill(
        tool: SkillTool(
            id: "text.count_words", title: "Word count", description: "Counts the words in a text.",
            parameters: [
                "type": "object", "properties": ["text": ["type": "string"]], "required": ["text"],
                "additionalProperties": false,
            ],
            timeout: 5, examples: ["count the words in {text}", "how many words are in {text}"]),
        body: { arguments in
            let text = arguments["text"]?.stringValue ?? ""
            return ["words": .int(Int64(text.split(separator: " ").count))]
        })

    static let addReminder = InMemorySkillBackend.Skill(
        tool: SkillTool(
            id: "reminders.add", title: "Add reminder", description: "Adds a reminder at a time.",
            parameters: [
                "type": "object",
                "properties": ["title": ["type": "string"], "time": ["type": "string", "format": "time"]],
                "required": ["title", "time"], "additionalProperties": false,
            ],
            permission: .write, timeout: 5, examples: ["remind me to {title} at {time}"]),
        body: { arguments in
            ["created": true, "title": arguments["title"] ?? .null, "time": arguments["time"] ?? .null]
        })

    static let failing = InMemorySkillBackend.Skill(
        tool: SkillTool(
            id: "files.read", title: "Read file", description: "Reads a file.",
            parameters: ["type": "object", "properties": ["path": ["type": "string"]], "required": ["path"]],
            timeout: 5, examples: ["read the file {path}"]),
        body: { arguments in
            throw SkillBodyError(description: "no such file \(arguments["path"]?.stringValue ?? "?"); check the path")
        })

    static func sleeper(id: String = "slow.wait", seconds: Double, timeout: Double) -> InMemorySkillBackend.Skill {
        InMemorySkillBackend.Skill(
            tool: SkillTool(
                id: id, title: "Wait", description: "Waits.",
                parameters: ["type": "object", "properties": ["label": ["type": "string"]]], timeout: timeout,
                examples: ["wait for {label}"]),
            body: { arguments in
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                return ["waited": arguments["label"] ?? "done"]
            })
    }

    static func backend(_ skills: InMemorySkillBackend.Skill...) -> InMemorySkillBackend { InMemorySkillBackend(skills) }
}
