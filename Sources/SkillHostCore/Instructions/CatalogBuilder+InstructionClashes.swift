extension CatalogBuilder {
    /// Plugin ids and instruction skill ids share one id space: when a plugin and an instruction skill (or
    /// two instruction skills) use the same id, each is marked invalid naming the other's path, as duplicate
    /// plugin ids are; neither silently wins.
    func markIdClashes(_ plugins: inout [PluginRecord], _ instructions: inout [InstructionSkillRecord]) {
        var owners: [String: [String]] = [:]
        for plugin in plugins where plugin.manifest != nil { owners[plugin.id, default: []].append(plugin.path) }
        for skill in instructions where skill.frontmatter != nil { owners[skill.id, default: []].append(skill.folder) }
        func reason(_ id: String, _ path: String) -> String? {
            guard let paths = owners[id], paths.count > 1 else { return nil }
            let others = paths.filter { $0 != path }.joined(separator: ", ")
            return "duplicate id \"\(id)\": \(path) and \(others) both use it (plugins and instruction skills share ids); remove or rename one"
        }
        for index in instructions.indices {
            guard instructions[index].frontmatter != nil, let message = reason(instructions[index].id, instructions[index].folder) else { continue }
            instructions[index].status = .invalid
            instructions[index].error = [instructions[index].error, message].compactMap { $0 }.joined(separator: "; ")
        }
        for index in plugins.indices {
            guard plugins[index].manifest != nil, let message = reason(plugins[index].id, plugins[index].path),
                instructions.contains(where: { $0.id == plugins[index].id })
            else { continue }
            plugins[index].status = .invalid
            plugins[index].error = [plugins[index].error, message].compactMap { $0 }.joined(separator: "; ")
            for skill in plugins[index].skills.indices { plugins[index].skills[skill].enabled = false }
        }
    }
}
