import SkillCalls

/// An installed skill that is switched off (itself or its plugin), as the offline planner sees it: the
/// planner still reads requests against it, so a request for it is answered with its name and the command
/// that enables it instead of "could not map".
public struct DisabledSkill: Sendable, Equatable {
    /// The skill as its manifest declares it.
    public var tool: SkillTool
    /// What `skillhost enable` needs: the plugin's id when the plugin is off, the skill's id when the skill is.
    public var enable: [String]

    /// A disabled skill and the ids that enable it.
    public init(tool: SkillTool, enable: [String]) {
        self.tool = tool
        self.enable = enable
    }

    /// The plan for `text` over the enabled `tools` and the `disabled` ones: a step or a question about a
    /// disabled skill becomes a note that names it and how to enable it. Also the disabled skills by the tool
    /// names the plan uses for them (a tie between skills may name one).
    static func plan(
        _ text: String, planner: OfflinePlanner, tools: [ToolSpec], disabled: [DisabledSkill]
    ) -> (plan: OfflinePlan, names: [String: DisabledSkill]) {
        guard !disabled.isEmpty else { return (planner.plan(text, tools: tools), [:]) }
        let taken = Set(tools.map(\.name))
        var off: [String: DisabledSkill] = [:]
        var specs = tools
        for skill in disabled {
            var name = "disabled_" + skill.tool.id.replacingOccurrences(of: ".", with: "_")
            while taken.contains(name) || off[name] != nil { name += "_" }
            off[name] = skill
            specs.append(ToolSpec(name: name, tool: skill.tool))
        }
        var plan = planner.plan(text, tools: specs)
        func note(_ clause: String, _ name: String) -> OfflinePlan.Unmapped? {
            guard let skill = off[name] else { return nil }
            return .init(clause: clause, reason: .disabled(skillID: skill.tool.id, title: skill.tool.title, enable: skill.enable))
        }
        var notes: [OfflinePlan.Unmapped] = []
        plan.steps.removeAll { step in
            guard let found = note(step.clause, step.toolName) else { return false }
            notes.append(found)
            return true
        }
        plan.unmapped = plan.unmapped.map { unmapped in
            switch unmapped.reason {
            case .missing(let name, _), .unreadable(let name, _, _), .question(let name, _, _, _):
                return note(unmapped.clause, name) ?? unmapped
            default:
                return unmapped
            }
        } + notes
        return (plan, off)
    }
}

extension OfflinePlan.Unmapped {
    /// Whether it names a disabled skill.
    var isDisabled: Bool {
        if case .disabled = reason { return true }
        return false
    }
}
