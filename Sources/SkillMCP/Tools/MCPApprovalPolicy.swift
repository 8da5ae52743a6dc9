import SkillAgent
import SkillHostCore
import Synchronization

/// Who allows `write` and `dangerous` skills when the client is an MCP app (there is no terminal to ask):
///
/// - a skill whose registry entry says `"approval": "allow"` runs (the host never asks);
/// - a `write` skill also runs when the server was started with `--allow-writes`;
/// - a `dangerous` skill runs only with its own registry entry: `--allow-writes` does not cover it;
/// - anything else is refused with a text that names the exact remedy.
public struct MCPApprovalPolicy: Sendable {
    /// `--allow-writes`.
    public var allowWrites: Bool
    /// The registry file named in remedies.
    public var registryPath: String

    /// A policy.
    public init(allowWrites: Bool, registryPath: String) {
        self.allowWrites = allowWrites
        self.registryPath = registryPath
    }

    /// Whether the host may run a skill it asks about.
    public func allows(_ permission: AgentTool.Permission) -> Bool {
        permission == .write && allowWrites
    }

    /// The refusal text for a skill this policy did not allow.
    public func refusal(for tool: AgentTool) -> String {
        let pluginID = tool.skillID.split(separator: ".").dropLast().joined(separator: ".")
        let entry = "set \"approval\": \"allow\" at plugins.\(pluginID).skills.\(tool.skillID) in \(registryPath)"
        switch tool.permission {
        case .write:
            return "denied: skill \(tool.skillID) writes (permission write) and an MCP client cannot be asked; nothing was run. "
                + "To allow it, start the server as 'skillhost mcp --allow-writes', or \(entry)"
        default:
            return "denied: skill \(tool.skillID) is dangerous and an MCP client cannot be asked; nothing was run. "
                + "To allow this one skill, \(entry) (--allow-writes does not cover dangerous skills)"
        }
    }

    /// An approval handler for one call that remembers whether it was asked and refused.
    func handler() -> (handler: ClosureApproval, refused: RefusalFlag) {
        let flag = RefusalFlag()
        let policy = self
        return (ClosureApproval { request in
            let allowed = policy.allows(request.permission)
            if !allowed { flag.set() }
            return allowed
        }, flag)
    }
}

/// Set when the policy refused a call, so the denial is reported with the policy's remedy.
final class RefusalFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
