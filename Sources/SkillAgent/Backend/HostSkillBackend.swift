import SkillHostCore
import SkillJSON

/// The ``SkillBackend`` over the host library: tools are the host's enabled skills, calls go through
/// ``SkillHost/invoke(skillID:arguments:options:)`` (which validates, checks the registry, asks for approval
/// and enforces the timeout). One backend serves one conversation: its skills share a session context.
public struct HostSkillBackend: SkillBackend {
    /// The host.
    public let host: SkillHost
    /// Values skills store for later skills of this conversation.
    public let sessionContext: SessionContext

    /// Whether each invocation's ``SkillInvocation/callID`` is the host's call id too (it must then be
    /// unique per call, as an MCP server's numbered ids are); false: the host makes a UUID per call.
    public var forwardsCallIDs = false

    /// A backend over `host` with a fresh session context.
    public init(host: SkillHost, sessionContext: SessionContext = SessionContext()) {
        self.host = host
        self.sessionContext = sessionContext
    }

    public func tools() async throws -> [AgentTool] {
        try host.enabledSkills().map(AgentTool.init)
    }

    /// The installed skills that are switched off (the skill or its plugin) and the ids that enable them,
    /// for the offline planner's answer to a request for one; empty when the catalog cannot be read.
    public func disabledSkills() -> [DisabledSkill] {
        guard let catalog = try? host.currentCatalog() else { return [] }
        let registry = try? host.registryStore.read()
        return catalog.plugins.filter { $0.status == .ok || $0.status == .disabled }.flatMap { plugin in
            plugin.skills.filter { !($0.enabled && plugin.isUsable) }.map { skill in
                // A skill of a disabled plugin is off through the plugin unless the registry switched it off too.
                let skillOff = plugin.enabled || registry?.skillSettings(skill.id, plugin: plugin.id).enabled == false
                return DisabledSkill(tool: AgentTool(skill), enable: (plugin.enabled ? [] : [plugin.id]) + (skillOff ? [skill.id] : []))
            }
        }
    }

    /// The host calls ``SkillInvocation/executionStarted`` after approval, right before dispatch.
    public var reportsExecutionStart: Bool { true }

    public nonisolated(nonsending) func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> {
        let approval = invocation.approval
        let key = invocation.idempotencyKey
            ?? (invocation.sessionID.isEmpty ? invocation.callID : invocation.sessionID + ":" + invocation.callID)
        let hook: InvocationOptions.ApprovalHandler? =
            if let host = approval as? HostApproval {
                host.handler  // the host's own hook sees the full skill description
            } else {
                { skill, arguments in
                    await approval.approve(
                        ApprovalRequest(
                            skillID: skill.id, permission: skill.permission,
                            arguments: arguments))
                }
            }
        var options = InvocationOptions(
            sessionID: invocation.sessionID, idempotencyKey: key, sessionContext: sessionContext, approval: hook)
        options.executionStarted = invocation.executionStarted
        if forwardsCallIDs { options.callID = invocation.callID }
        do {
            return .success(try await host.invoke(skillID: invocation.skillID, arguments: invocation.arguments, options: options))
        } catch {
            return .failure(error)
        }
    }
}

extension AgentTool {
    /// The tool for a host skill description.
    public init(_ skill: SkillDescription) {
        var declared = skill.manifest
        declared.timeout = skill.timeout
        self.init(skill: declared)
    }
}
