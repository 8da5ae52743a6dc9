import SkillCalls
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
        var tool: SkillTool
        var body: @Sendable (JSONValue, SessionContext) async -> Result<JSONValue, HostError>
    }

    let skills: [Skill]
    let context: SessionContext
    let memory: MemoryBackend

    init(_ skills: [Skill], context: SessionContext) {
        self.skills = skills
        self.context = context
        memory = MemoryBackend(skills.map { skill in
            MemoryBackend.Skill(tool: skill.tool) { arguments, _ in try await skill.body(arguments, context).get() }
        })
    }

    func runs(of skillID: String) -> Int { memory.invocations.filter { $0.skillID == skillID }.count }
    /// The idempotency keys the skills were given, in order.
    var idempotencyKeys: [String] { memory.invocations.map { $0.options.idempotencyKey ?? "" } }

    func tools() throws(HostError) -> [SkillTool] { try memory.tools() }
    func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        try memory.prepare(skillID: skillID, arguments: arguments)
    }
    func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        try await memory.run(call, options: options)
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
