import SkillHostCore

/// `skillhost remove ID`: uninstalls a plugin or an instruction skill.
enum RemoveCommand: Command {
    static let name = "remove"
    static let summary = "remove an installed plugin, instruction skill or MCP server"
    static let help = """
        usage: skillhost remove ID

        Deletes the plugin's file from the plugins folder (with the signature a package install kept beside
        it), or the instruction skill's folder from the skills folder. Its registry entry (enabled state,
        settings) is kept, so installing it again restores them.

        Exit codes: \(ExitCode.notFound) when no plugin or instruction skill has that id.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one ID") }
        let host = HostOptions.host(parsed)
        let id = parsed.positionals[0]
        if try host.mcpServers().contains(where: { $0.name == Identifier.normalize(id) }) {
            let entry = try host.removeMCPServer(id)
            print("removed MCP server \(entry.name) (its data folder \(host.paths.dataDirectory(forMCPServer: entry.name)) is kept)")
            return ExitCode.success
        }
        if try host.catalog().plugin(id) != nil {
            let plugin = try host.removePlugin(id)
            print("removed plugin \(plugin.id)\(plugin.manifest.map { " \($0.version)" } ?? "") (\(plugin.path))")
            return ExitCode.success
        }
        let record = try host.removeSkill(id)
        print("removed instruction skill \(record.id) (\(record.folder))")
        return ExitCode.success
    }
}
