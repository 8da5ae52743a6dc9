/// How one call is made through ``SkillHost/execute(_:options:)`` (or ``SkillHost/invoke(skillID:arguments:options:)``).
public struct InvocationOptions: Sendable {
    /// Session id ("" outside a session).
    public var sessionID: String
    /// Call id; a new UUID when nil.
    public var callID: String?
    /// Same for retries of one logical call; ``IdempotencyKey/fallback(sessionID:callID:)`` when nil.
    public var idempotencyKey: String?
    /// The session's execution context.
    public var sessionContext: SessionContext
    /// Whether the call was allowed by whoever is asked (the tool-call layer asks before the skill's clock
    /// starts). A call that needs approval (``PreparedCall/needsApproval``) and was not allowed is refused.
    public var approved: Bool
    /// Where the worker executor names the worker process that ran the call (nil: the task's
    /// ``WorkerAttribution/current``, if any). Handed over here instead of bound as a task-local value:
    /// a binding costs the call an allocation and two trips through the task's status record.
    public var attribution: WorkerAttribution?

    /// Creates options; everything is optional.
    public init(
        sessionID: String = "", callID: String? = nil, idempotencyKey: String? = nil,
        sessionContext: SessionContext = SessionContext(), approved: Bool = false
    ) {
        self.sessionID = sessionID
        self.callID = callID
        self.idempotencyKey = idempotencyKey
        self.sessionContext = sessionContext
        self.approved = approved
    }
}
