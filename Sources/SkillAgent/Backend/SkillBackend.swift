import SkillHostCore
import SkillJSON

/// Where the agent's skills come from and where their calls go. The loop depends only on this protocol:
/// ``HostSkillBackend`` adapts the `SkillHost` facade; tests use an in-memory backend.
///
/// Implementation requirements: thread-safe (the loop runs several calls at once); `run` validates the
/// arguments against the skill's schema, checks that the skill is enabled and asks `approval` for skills
/// that need it, and reports every failure as a ``HostError`` (never by crashing). It should stop promptly
/// when its task is cancelled.
public protocol SkillBackend: Sendable {
    /// The enabled skills, as tools to offer the model.
    func tools() async throws -> [AgentTool]

    /// Runs one call and returns the skill's result JSON, or the failure as a ``HostError``.
    nonisolated(nonsending) func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError>
    /// Whether ``run(_:)`` calls ``SkillInvocation/executionStarted`` when the skill itself starts (after
    /// approval); the agent then starts the skill's timer at that moment. When false (the default) the
    /// timer starts with `run`.
    var reportsExecutionStart: Bool { get }
}

extension SkillBackend {
    public var reportsExecutionStart: Bool { false }
}

/// One call the agent asks a backend to run.
public struct SkillInvocation: Sendable {
    /// The normalized skill id.
    public var skillID: String
    /// The arguments the model gave (a JSON object, not yet validated).
    public var arguments: JSONValue
    /// The model's id for the call (also used as the idempotency key of this logical call).
    public var callID: String
    /// The conversation's session id.
    public var sessionID: String
    /// Asked before a `write` or `dangerous` skill runs.
    public var approval: any ApprovalHandler
    /// Called by the backend when the skill itself starts, after approval and checks: the skill's timeout
    /// runs from here.
    public var executionStarted: @Sendable () -> Void = {}
    /// The key of this logical call, handed to the skill; nil lets the backend derive one from the call id.
    public var idempotencyKey: String?

    /// An invocation with these parts.
    public init(
        skillID: String, arguments: JSONValue, callID: String, sessionID: String = "",
        approval: any ApprovalHandler = DenyAllApproval(), idempotencyKey: String? = nil
    ) {
        self.idempotencyKey = idempotencyKey
        self.skillID = skillID
        self.arguments = arguments
        self.callID = callID
        self.sessionID = sessionID
        self.approval = approval
    }
}
