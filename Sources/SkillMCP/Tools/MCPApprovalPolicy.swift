import SkillCalls
import SkillHostCore

/// Who allows `write` and `dangerous` skills when the client is an MCP app (there is no terminal to ask):
/// the server's ``ApprovalHandler``, asked by the tool-call layer only for skills the registry says to ask
/// about (`"approval": "ask"`, the default for `write` and `dangerous`):
///
/// - a skill whose registry entry says `"approval": "allow"` runs (nobody is asked);
/// - a `write` skill also runs when the server was started with `--allow-writes`;
/// - a `dangerous` skill runs only with its own registry entry: `--allow-writes` does not cover it;
/// - a client of the 2026-07-28 revision that declared `elicitation` is asked (Multi Round-Trip Requests:
///   `resultType: "input_required"`), and its verified answer decides (``MCPCallApproval``);
/// - anything else is refused with a text that names the exact remedy.
public struct MCPApprovalPolicy: ApprovalHandler {
    /// `--allow-writes`.
    public let allowWrites: Bool
    /// The registry file named in remedies.
    public let registryPath: String

    /// A policy.
    public init(allowWrites: Bool, registryPath: String) {
        self.allowWrites = allowWrites
        self.registryPath = registryPath
    }

    /// Whether a skill of `permission` that the registry says to ask about may run.
    public func allows(_ permission: Permission) -> Bool {
        permission == .write && allowWrites
    }

    public func approve(_ request: ApprovalRequest) async -> Bool {
        if case .retry = request.reason { return false }
        if allows(request.permission) { return true }
        // The 2026-07-28 revision can ask the client (Multi Round-Trip Requests), when it can answer.
        guard let call = MCPCallApproval.current else { return false }
        switch call.answer {
        case .approved: return true
        case .declined: return false
        case .none:
            if call.canAsk { call.ask(request) }
            return false
        }
    }

    /// The refusal text for a skill this policy did not allow.
    public func refusal(of request: ApprovalRequest) -> String? {
        let skill = request.skill
        if case .declined(let how)? = MCPCallApproval.current?.answer {
            return "the client's user \(how) running skill \(skill.id) (permission \(skill.permission.rawValue)); nothing was run. Call it again to be asked again"
        }
        if MCPCallApproval.current?.asked != nil {
            return "skill \(skill.id) needs the user's approval; it was asked of the client (resultType input_required); nothing was run"
        }
        let entry = "set \"approval\": \"allow\" at \(skill.settingPath()) in \(registryPath)"
        switch skill.permission {
        case .write:
            return "skill \(skill.id) writes (permission write) and an MCP client cannot be asked; nothing was run. "
                + "To allow it, start the server as 'skillhost mcp --allow-writes', or \(entry)"
        default:
            return "skill \(skill.id) is dangerous and an MCP client cannot be asked; nothing was run. "
                + "To allow this one skill, \(entry) (--allow-writes does not cover dangerous skills)"
        }
    }
}
