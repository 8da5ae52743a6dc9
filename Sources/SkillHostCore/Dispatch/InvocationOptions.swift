import SkillJSON

/// How one call is made through ``SkillHost/invoke(skillID:arguments:options:)``.
public struct InvocationOptions: Sendable {
    /// Asked before a skill that needs approval runs; returns whether the user allows it. Without a handler
    /// such calls are denied.
    public typealias ApprovalHandler = @Sendable (SkillDescription, JSONValue) async -> Bool

    /// Session id ("" outside a session).
    public var sessionID: String
    /// Call id; a new UUID when nil.
    public var callID: String?
    /// Same for retries of one logical call; the call id when nil.
    public var idempotencyKey: String?
    /// The session's execution context.
    public var sessionContext: SessionContext
    /// Decides calls that need approval.
    public var approval: ApprovalHandler?
    /// Called once every check and the approval have passed, right before the skill is dispatched: where a
    /// caller's timer for the skill's execution should start.
    public var executionStarted: (@Sendable () -> Void)?

    /// Creates options; everything is optional.
    public init(
        sessionID: String = "", callID: String? = nil, idempotencyKey: String? = nil,
        sessionContext: SessionContext = SessionContext(), approval: ApprovalHandler? = nil
    ) {
        self.sessionID = sessionID
        self.callID = callID
        self.idempotencyKey = idempotencyKey
        self.sessionContext = sessionContext
        self.approval = approval
    }
}
