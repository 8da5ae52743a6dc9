import SkillHostCore

/// `skillhost rescan`: forgets the scan cache and scans every plugin file again.
enum RescanCommand: Command {
    static let name = "rescan"
    static let summary = "scan every plugin file again"
    static let help = """
        usage: skillhost rescan [--json]

        Scans every .so file in the plugins folder again in child processes, ignoring the scan cache, so a
        file marked broken or invalid gets a fresh chance. Prints the resulting list.

        Options:
          --json    print the same JSON as 'skillhost list --json'
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let catalog = try HostOptions.host(parsed).rescan()
        if parsed.has("--json") {
            HostOptions.printJSON(catalog.json)
        } else {
            print(CatalogTable.render(catalog, pluginsFolder: HostOptions.paths(parsed).plugins))
        }
        return ExitCode.success
    }
}
