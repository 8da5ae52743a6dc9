import SkillHostCore

/// `skillhost remove ID`: uninstalls an instruction skill.
enum RemoveCommand: Command {
    static let name = "remove"
    static let summary = "remove an installed instruction skill"
    static let help = """
        usage: skillhost remove ID

        Deletes the instruction skill's folder from the skills folder. Its registry entry (enabled state)
        is kept, so adding it again restores it.

        Exit codes: \(ExitCode.notFound) when no instruction skill has that id.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one ID") }
        let record = try HostOptions.host(parsed).removeSkill(parsed.positionals[0])
        print("removed instruction skill \(record.id) (\(record.folder))")
        return ExitCode.success
    }
}
