import SkillJSON

/// What the user is asked before a `write` or `dangerous` skill runs.
public struct ApprovalRequest: Sendable, Equatable {
    /// The skill to run.
    public var skillID: String
    /// Its permission (`write` or `dangerous`).
    public var permission: AgentTool.Permission
    /// The arguments it would run with.
    public var arguments: JSONValue
    /// Why the user is asked when it is not the skill's permission (e.g. a retry of a call that failed).
    public var note: String?

    /// A request with these parts.
    public init(skillID: String, permission: AgentTool.Permission, arguments: JSONValue, note: String? = nil) {
        self.note = note
        self.skillID = skillID
        self.permission = permission
        self.arguments = arguments
    }
}

/// Decides whether a skill that needs approval may run: a terminal prompt, `--yes`, or a policy.
/// Thread-safe; may be asked for several calls at once (a terminal implementation asks one at a time).
public protocol ApprovalHandler: Sendable {
    /// Whether the call may run.
    func approve(_ request: ApprovalRequest) async -> Bool
}

/// Denies everything: the default when nobody can be asked (not a terminal, no `--yes`).
public struct DenyAllApproval: ApprovalHandler {
    /// A handler that refuses every call.
    public init() {}
    public func approve(_ request: ApprovalRequest) async -> Bool { false }
}

/// Allows everything: what `--yes` selects.
public struct AllowAllApproval: ApprovalHandler {
    /// A handler that allows every call.
    public init() {}
    public func approve(_ request: ApprovalRequest) async -> Bool { true }
}

/// Asks a closure (the CLI's terminal prompt, or a test's script).
public struct ClosureApproval: ApprovalHandler {
    private let decide: @Sendable (ApprovalRequest) async -> Bool

    /// Approval decided by `decide`.
    public init(_ decide: @escaping @Sendable (ApprovalRequest) async -> Bool) { self.decide = decide }

    public func approve(_ request: ApprovalRequest) async -> Bool { await decide(request) }
}
