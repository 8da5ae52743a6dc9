import SkillAgent
import SkillHostCore
import SkillJSON
import Synchronization

/// A model that plays scripted replies in order, then answers "done".
final class ScriptModel: ModelProvider {
    private let replies: Mutex<[ModelReply]>
    /// Calls tools even when told not to (as some local models do).
    let ignoresToolChoice: Bool
    init(_ replies: [ModelReply], ignoresToolChoice: Bool = false) {
        self.replies = Mutex(replies)
        self.ignoresToolChoice = ignoresToolChoice
    }
    var name: String { "script" }

    func respond(to request: ModelRequest) -> AsyncThrowingStream<ModelStreamEvent, any Error> {
        let reply = request.toolChoice == .none && !ignoresToolChoice
            ? ModelReply(content: "done")
            : replies.withLock { $0.isEmpty ? ModelReply(content: "done") : $0.removeFirst() }
        return AsyncThrowingStream { continuation in
            continuation.yield(.reply(reply))
            continuation.finish()
        }
    }
}

/// Skills as closures over a shared session context; counts how often each body ran.
final class ClosureBackend: SkillBackend {
    struct Skill: Sendable {
        var tool: AgentTool
        var body: @Sendable (JSONValue, SessionContext) async -> Result<JSONValue, HostError>
    }

    let skills: [Skill]
    let context: SessionContext
    private let counts = Mutex<[String: Int]>([:])
    private let keys = Mutex<[String]>([])

    init(_ skills: [Skill], context: SessionContext) {
        self.skills = skills
        self.context = context
    }

    func runs(of skillID: String) -> Int { counts.withLock { $0[skillID] ?? 0 } }
    /// The idempotency keys the skills were given, in order.
    var idempotencyKeys: [String] { keys.withLock { $0 } }

    func tools() async throws -> [AgentTool] { skills.map(\.tool) }

    func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> {
        guard let skill = skills.first(where: { $0.tool.skillID == invocation.skillID }) else {
            return .failure(HostError(.notFound, "no \(invocation.skillID)"))
        }
        counts.withLock { $0[invocation.skillID, default: 0] += 1 }
        keys.withLock { $0.append(invocation.idempotencyKey ?? "") }
        return await skill.body(invocation.arguments, context)
    }
}

/// Runs one turn, returning its events.
func turn(_ agent: Agent, _ text: String) async -> [AgentEvent] {
    var all: [AgentEvent] = []
    for await event in agent.send(text) { all.append(event) }
    return all
}

/// One call the model makes.
func reply(_ calls: (id: String, tool: String, arguments: JSONValue)...) -> ModelReply {
    ModelReply(content: "", toolCalls: calls.map { ToolCall(id: $0.id, name: $0.tool, arguments: $0.arguments) })
}
