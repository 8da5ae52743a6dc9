import SkillJSON

/// Every plugin file in the plugins folder with its status and skills (`skillhost list`). An invalid or
/// broken file is listed with its reason and never hides the others.
public struct Catalog: Sendable, Equatable {
    /// One record per `.so` file, sorted by path.
    public var plugins: [PluginRecord]
    /// One record per sub-folder of the skills folders (Agent Skills): a trusted project's, then the user's.
    public var instructions: [InstructionSkillRecord]
    /// The project folder whose skills are not loaded because it is not trusted (nil: none).
    public var untrustedProject: String? = nil

    /// The one-line warnings a person should see about the skills: a project's skills not loaded (not
    /// trusted), a skill that shadows another of its name.
    public var notes: [String] {
        (untrustedProject.map { [ProjectSkills.untrustedNote($0)] } ?? [])
            + instructions.flatMap(ProjectSkills.collisionWarnings)
    }

    /// Creates a catalog of these records.
    public init(plugins: [PluginRecord], instructions: [InstructionSkillRecord] = []) {
        self.plugins = plugins
        self.instructions = instructions
    }

    /// The instruction skill with this id (normalized first).
    public func instruction(_ id: String) -> InstructionSkillRecord? {
        let id = Identifier.normalize(id)
        return instructions.first { $0.id == id }
    }

    /// Instruction skills that may be offered to a model, in catalog order.
    public var enabledInstructions: [InstructionSkillRecord] { instructions.filter(\.isUsable) }

    /// The plugin with this id (normalized first): the first by path that has a manifest, else the first
    /// file named after the id.
    public func plugin(_ id: String) -> PluginRecord? {
        let id = Identifier.normalize(id)
        return plugins.first { $0.id == id && $0.manifest != nil } ?? plugins.first { $0.id == id }
    }

    /// The skill with this id (normalized first), with its plugin.
    public func skill(_ id: String) -> (skill: SkillDescription, plugin: PluginRecord)? {
        let id = Identifier.normalize(id)
        for plugin in plugins {
            if let skill = plugin.skills.first(where: { $0.id == id }) { return (skill, plugin) }
        }
        return nil
    }

    /// Skills that may be offered to a model and called, in catalog order.
    public var enabledSkills: [SkillDescription] {
        plugins.filter(\.isUsable).flatMap { $0.skills.filter(\.enabled) }
    }
}
