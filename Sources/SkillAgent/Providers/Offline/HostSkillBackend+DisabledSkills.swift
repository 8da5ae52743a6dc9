import SkillCalls
import SkillHostCore

extension HostSkillBackend {
    /// The installed skills that are switched off (the skill or its plugin) and the ids that enable them,
    /// for the offline planner's answer to a request for one; empty when the catalog cannot be read.
    public func disabledSkills() -> [DisabledSkill] {
        guard let catalog = try? host.currentCatalog() else { return [] }
        let registry = try? host.registryStore.read()
        return catalog.plugins.filter { $0.status == .ok || $0.status == .disabled }.flatMap { plugin in
            plugin.skills.filter { !($0.enabled && plugin.isUsable) }.map { skill in
                // A skill of a disabled plugin is off through the plugin unless the registry switched it off too.
                let skillOff = plugin.enabled || registry?.skillSettings(skill.id, plugin: plugin.id).enabled == false
                return DisabledSkill(tool: SkillTool(skill), enable: (plugin.enabled ? [] : [plugin.id]) + (skillOff ? [skill.id] : []))
            }
        }
    }
}
