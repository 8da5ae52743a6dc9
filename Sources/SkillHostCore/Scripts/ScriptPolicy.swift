import SkillJSON

/// What the registry decides about running one instruction skill's bundled scripts (issue #30): the
/// skill's `permission` and the approval of its script tool, stored where a plugin's are so every rule and
/// message about approval applies unchanged:
///
/// - `plugins.<skill>.permission`: `read` | `write` (default) | `dangerous` — what running its scripts may do;
/// - `plugins.<skill>.skills.run_skill_script.approval`: `ask` | `allow` | `deny` — default `ask` for `write`
///   and `dangerous`, `allow` for `read` (``Permission/needsApproval``), as for a plugin's skill.
///
/// `skillhost set SKILL permission read` and `skillhost set SKILL approval allow` write them.
public struct ScriptPolicy: Sendable, Equatable {
    /// The script tool's id (and name), which is the "skill" of an instruction skill's registry entry.
    public static let toolID = "run_skill_script"
    /// What a skill's scripts are taken to do when the registry does not say.
    public static let defaultPermission = Permission.write

    /// The skill's registry `permission` (``defaultPermission`` when not set).
    public var permission: Permission
    /// The effective approval: the registry's, else `ask` for `write`/`dangerous` and `allow` for `read`.
    public var approval: ApprovalPolicy
    /// Whether the registry sets the permission (false: the default).
    public var permissionIsSet: Bool
    /// Whether the registry sets the approval (false: derived from the permission).
    public var approvalIsSet: Bool

    /// A policy with these parts.
    public init(permission: Permission, approval: ApprovalPolicy, permissionIsSet: Bool = false, approvalIsSet: Bool = false) {
        self.permission = permission
        self.approval = approval
        self.permissionIsSet = permissionIsSet
        self.approvalIsSet = approvalIsSet
    }

    /// The policy of an instruction skill no registry entry mentions.
    public static let standard = ScriptPolicy(permission: defaultPermission, approval: .ask)

    /// Where a skill's script setting lives, as remedies name it (`plugins.S.permission`,
    /// `plugins.S.skills.run_skill_script.approval`).
    public static func settingPath(skill: String, key: String) -> String {
        key == "permission" ? "plugins.\(skill).permission" : Registry.settingPath(pluginID: skill, skillID: toolID, key: key)
    }

    /// As `inspect --json` and `list --json` show it.
    public var json: JSONValue {
        ["permission": .string(permission.rawValue), "approval": .string(approval.rawValue)]
    }

    /// One line for people: `permission write, approval ask`.
    public var text: String { "permission \(permission.rawValue), approval \(approval.rawValue)" }
}

extension Registry {
    /// The script policy of the instruction skill `skillID` (checked when the registry was read).
    public func scriptPolicy(forSkill skillID: String) -> ScriptPolicy {
        let id = Identifier.normalize(skillID)
        let given = pluginEntry(id)?["permission"]?.stringValue.flatMap(Permission.init(rawValue:))
        let permission = given ?? ScriptPolicy.defaultPermission
        let approval = skillSettings(ScriptPolicy.toolID, plugin: id).approval
        return ScriptPolicy(
            permission: permission, approval: approval ?? (permission.needsApproval ? .ask : .allow),
            permissionIsSet: given != nil, approvalIsSet: approval != nil)
    }
}
