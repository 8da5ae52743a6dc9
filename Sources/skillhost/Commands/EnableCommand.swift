import SkillHostCore

/// `skillhost enable ID...`: switches plugins or skills on in the registry.
enum EnableCommand: Command {
    static let name = "enable"
    static let summary = "enable plugins or skills"
    static let help = """
        usage: skillhost enable ID...

        Enables each plugin, skill, MCP server (NAME) or MCP tool (NAME.tool) (ids are normalized) in the registry, in one locked, atomic update.
        A skill whose plugin is disabled stays unavailable until the plugin is enabled too.

        Exit codes: \(ExitCode.notFound) when an id is unknown (nothing is changed), \(ExitCode.registryError) when the registry is malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        try EnableDisable.run(arguments, enabled: true)
    }
}

/// The shared body of `enable` and `disable`.
enum EnableDisable {
    static func run(_ arguments: [String], enabled: Bool) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: [])
        guard !parsed.positionals.isEmpty else { throw UsageError("expected at least one ID") }
        let host = HostOptions.host(parsed)
        // MCP servers and their tools first (no server is started for it), then plugins and skills.
        let (sources, rest) = try host.setMCPEnabled(parsed.positionals, enabled)
        let changes = sources + (rest.isEmpty ? [] : try host.setEnabled(rest, enabled))
        for change in changes {
            print("\(enabled ? "enabled" : "disabled") \(change.kind) \(change.id)")
            if let note = change.note { ErrorReporter.printError("note: \(note)") }
        }
        return ExitCode.success
    }
}
