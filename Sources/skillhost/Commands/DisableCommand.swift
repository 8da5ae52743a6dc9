import SkillHostCore

/// `skillhost disable ID...`: switches plugins or skills off in the registry.
enum DisableCommand: Command {
    static let name = "disable"
    static let summary = "disable plugins or skills"
    static let help = """
        usage: skillhost disable ID...

        Disables each plugin, skill, MCP server (NAME) or MCP tool (NAME.tool) (ids are normalized) in the registry, in one locked, atomic update.
        A disabled skill is never offered to a model and never called.

        Exit codes: \(ExitCode.notFound) when an id is unknown (nothing is changed), \(ExitCode.registryError) when the registry is malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        try EnableDisable.run(arguments, enabled: false)
    }
}
