import SkillHostCore
import SkillJSON

/// What a person (or a policy) is asked before a call runs: the one approval protocol of every front end,
/// asked by ``ToolCaller`` after every check that needs nobody and before the skill's clock starts.
public struct ApprovalRequest: Sendable, Equatable {
    /// Why someone is asked.
    public enum Reason: Sendable, Equatable {
        /// The skill's permission (`write` or `dangerous`) needs approval (the registry's `approval` is `ask`).
        case permission
        /// The same call failed earlier in a way that may have taken effect (a non-idempotent skill): run it
        /// again? The text says what happened.
        case retry(String)
    }

    /// The skill as the catalog offers it (its id, title, permission, plugin).
    public var skill: SkillDescription
    /// The arguments it would run with.
    public var arguments: JSONValue
    /// Why someone is asked.
    public var reason: Reason

    /// A request with these parts.
    public init(skill: SkillDescription, arguments: JSONValue, reason: Reason = .permission) {
        self.skill = skill
        self.arguments = arguments
        self.reason = reason
    }

    /// The skill's permission.
    public var permission: Permission { skill.permission }
    /// The note to show beside the question when the reason is not the permission ("retry? …").
    public var note: String? {
        if case .retry(let why) = reason { return "retry? " + why }
        return nil
    }
}

/// Decides whether a call may run: a terminal prompt, `--yes`, an MCP server's policy, a test's script.
/// Thread-safe; may be asked for several calls at once (a terminal implementation asks one at a time).
public protocol ApprovalHandler: Sendable {
    /// Whether the call may run.
    func approve(_ request: ApprovalRequest) async -> Bool
    /// What a refused call tells its caller: why, and how to get such a call allowed (one line); nil for
    /// the standard text.
    func refusal(of request: ApprovalRequest) -> String?
}

extension ApprovalHandler {
    public func refusal(of request: ApprovalRequest) -> String? { nil }
}

/// Denies everything: the default when nobody can be asked (not a terminal, no `--yes`).
public struct DenyAllApproval: ApprovalHandler {
    /// A handler that refuses every call.
    public init() {}
    public func approve(_ request: ApprovalRequest) async -> Bool { false }

    public func refusal(of request: ApprovalRequest) -> String? {
        let skill = request.skill
        let setting = skill.settingPath("approval")
        switch request.reason {
        case .permission:
            return "skill \(skill.id) (\(skill.permission.rawValue)) needs approval and no one was asked; pass --yes, answer y at the prompt, or set \(setting) to \"allow\" in the registry"
        case .retry(let why):
            return "\(skill.id) was not run again: \(why); retry only after checking (pass --yes or answer y to retry)"
        }
    }
}

/// Allows everything: what `--yes` selects.
public struct AllowAllApproval: ApprovalHandler {
    /// A handler that allows every call.
    public init() {}
    public func approve(_ request: ApprovalRequest) async -> Bool { true }
}

/// Asks a closure (a test's script).
public struct ClosureApproval: ApprovalHandler {
    private let decide: @Sendable (ApprovalRequest) async -> Bool

    /// Approval decided by `decide`.
    public init(_ decide: @escaping @Sendable (ApprovalRequest) async -> Bool) { self.decide = decide }

    public func approve(_ request: ApprovalRequest) async -> Bool { await decide(request) }
}
