import SkillHostCore

/// `skillhost list [--json]`: every plugin file with its status and skills.
enum ListCommand: Command {
    static let name = "list"
    static let summary = "list plugins and their skills with status"
    static let help = """
        usage: skillhost list [--json]

        Lists every .so file in the plugins folder with its status (ok, disabled, invalid, broken), the
        reason when it is not usable, and its skills. Unchanged files come from the scan cache: no plugin
        code runs. Changed files are scanned in a child process.

        Options:
          --json    print {"plugins":[{"id","path","status","enabled","error","skills":[{"id","title",
                    "description","enabled","permission"}]}]}
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let catalog = try HostOptions.host(parsed).catalog()
        if parsed.has("--json") {
            HostOptions.printJSON(catalog.json)
        } else {
            print(CatalogTable.render(catalog))
        }
        return ExitCode.success
    }
}

/// The human table of `list`.
enum CatalogTable {
    static func render(_ catalog: Catalog) -> String {
        if catalog.plugins.isEmpty {
            return "No plugins found. Copy .so files into the plugins folder (see 'skillhost list --help')."
        }
        var lines: [String] = []
        let idWidth = max(6, catalog.plugins.map(\.id.count).max() ?? 0,
                          catalog.plugins.flatMap(\.skills).map { $0.id.count + 2 }.max() ?? 0) + 2
        lines.append(pad("PLUGIN", idWidth) + pad("STATUS", 10) + pad("VERSION", 10) + "PATH")
        for plugin in catalog.plugins {
            lines.append(pad(plugin.id, idWidth) + pad(plugin.status.rawValue, 10)
                + pad(plugin.manifest?.version ?? "-", 10) + plugin.path)
            if let error = plugin.error { lines.append("  ! " + error) }
            if plugin.manifest != nil { lines.append("  sandbox: " + plugin.sandboxLabel) }
            for skill in plugin.skills {
                let state = skill.enabled ? "on" : "off"
                lines.append(pad("  " + skill.id, idWidth) + pad(state, 10) + pad(skill.permission.rawValue, 10) + skill.title)
            }
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
