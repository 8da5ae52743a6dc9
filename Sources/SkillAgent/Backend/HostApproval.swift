import SkillHostCore
import SkillJSON

/// An ``ApprovalHandler`` that wraps the host's own approval hook (`InvocationOptions.ApprovalHandler`,
/// e.g. the CLI's terminal prompt). ``HostSkillBackend`` hands the hook to the host unchanged, so the
/// prompt sees the full skill description; other backends get a description built from the request.
public struct HostApproval: ApprovalHandler {
    /// The host's hook; nil denies everything (nobody can be asked).
    public let handler: InvocationOptions.ApprovalHandler?

    /// Wraps `handler`.
    public init(_ handler: InvocationOptions.ApprovalHandler?) { self.handler = handler }

    public func approve(_ request: ApprovalRequest) async -> Bool {
        guard let handler else { return false }
        let skill = SkillDescription(
            id: request.skillID, title: request.note ?? request.skillID, description: "", parameters: ["type": "object"],
            permission: request.permission, timeout: SkillDefaults.timeout,
            idempotent: false, examples: [], pluginID: "", pluginPath: "", enabled: true, approval: .ask)
        return await handler(skill, request.arguments)
    }
}
