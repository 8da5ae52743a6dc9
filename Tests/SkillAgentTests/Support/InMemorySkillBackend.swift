import JSONSchema
import SkillAgent
import SkillHostCore
import SkillJSON
import Synchronization

/// A ``SkillBackend`` over Swift closures, doing what the host does before dispatch: unknown id, disabled,
/// schema validation (with the real validator), approval for `write`/`dangerous`. Records every call.
final class InMemorySkillBackend: SkillBackend {
    struct Skill: Sendable {
        var tool: AgentTool
        var enabled = true
        var body: @Sendable (JSONValue) async throws -> JSONValue
    }

    private let skills: [String: Skill]
    private let order: [String]
    private let log = Mutex<[SkillInvocation]>([])
    private let inFlight = Mutex<(now: Int, peak: Int)>((0, 0))

    init(_ skills: [Skill]) {
        self.skills = Dictionary(skills.map { ($0.tool.skillID, $0) }, uniquingKeysWith: { first, _ in first })
        self.order = skills.map(\.tool.skillID)
    }

    /// The invocations that reached a skill's body, in arrival order.
    var invocations: [SkillInvocation] { log.withLock { $0 } }
    /// The most calls that were running at once.
    var peakConcurrency: Int { inFlight.withLock { $0.peak } }

    /// Like the host: the timer starts after approval.
    var reportsExecutionStart: Bool { true }

    func tools() async throws -> [AgentTool] {
        order.compactMap { skills[$0] }.filter(\.enabled).map(\.tool)
    }

    func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> {
        let id = invocation.skillID
        guard let skill = skills[id] else { return .failure(HostError(.notFound, "no skill \(id)", skillID: id)) }
        guard skill.enabled else { return .failure(HostError(.disabled, "skill \(id) is disabled", skillID: id)) }
        do {
            let schema = try Schema(compiling: skill.tool.parameters)
            let errors = schema.validate(invocation.arguments)
            if !errors.isEmpty {
                return .failure(
                    HostError(
                        .invalidArguments,
                        "arguments of \(id) do not match its schema: " + errors.map(\.description).joined(separator: "; "),
                        skillID: id, details: .array(errors.map { .string($0.description) })))
            }
        } catch {
            return .failure(HostError(.invalidPlugin, "schema of \(id) does not compile: \(error)", skillID: id))
        }
        if skill.tool.permission.needsApproval {
            let request = ApprovalRequest(skillID: id, permission: skill.tool.permission, arguments: invocation.arguments)
            guard await invocation.approval.approve(request) else {
                return .failure(HostError(.denied, "\(id) needs approval and it was refused; rerun with --yes to allow", skillID: id))
            }
        }
        invocation.executionStarted()
        log.withLock { $0.append(invocation) }
        inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
        defer { inFlight.withLock { $0.now -= 1 } }
        do {
            return .success(try await skill.body(invocation.arguments))
        } catch let error as HostError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(HostError(.cancelled, "\(id) was cancelled", skillID: id))
        } catch {
            return .failure(HostError(.skillFailed, "\(id) failed: \(error)", skillID: id))
        }
    }
}

/// An error a test skill throws.
struct SkillBodyError: Error, CustomStringConvertible {
    var description: String
}

/// The skills most tests use.
enum TestSkills {
    static let clockNow = InMemorySkillBackend.Skill(
        tool: AgentTool(
            skillID: "clock.now", title: "Current time", description: "The current time in a time zone.",
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
        tool: AgentTool(
            skillID: "text.count_words", title: "Word count", description: "Counts the words in a text.",
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
        tool: AgentTool(
            skillID: "reminders.add", title: "Add reminder", description: "Adds a reminder at a time.",
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
        tool: AgentTool(
            skillID: "files.read", title: "Read file", description: "Reads a file.",
            parameters: ["type": "object", "properties": ["path": ["type": "string"]], "required": ["path"]],
            timeout: 5, examples: ["read the file {path}"]),
        body: { arguments in
            throw SkillBodyError(description: "no such file \(arguments["path"]?.stringValue ?? "?"); check the path")
        })

    static func sleeper(id: String = "slow.wait", seconds: Double, timeout: Double) -> InMemorySkillBackend.Skill {
        InMemorySkillBackend.Skill(
            tool: AgentTool(
                skillID: id, title: "Wait", description: "Waits.",
                parameters: ["type": "object", "properties": ["label": ["type": "string"]]], timeout: timeout,
                examples: ["wait for {label}"]),
            body: { arguments in
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                return ["waited": arguments["label"] ?? "done"]
            })
    }

    static func backend(_ skills: InMemorySkillBackend.Skill...) -> InMemorySkillBackend { InMemorySkillBackend(skills) }
}
