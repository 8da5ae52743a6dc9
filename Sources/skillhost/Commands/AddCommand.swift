import SkillHostCore

/// `skillhost add PATH`: installs an instruction skill (folder, `.zip` or `.skill`).
enum AddCommand: Command {
    static let name = "add"
    static let summary = "install an instruction skill (SKILL.md folder, .zip or .skill)"
    static let help = """
        usage: skillhost add PATH

        Installs an Agent Skills folder (SKILL.md with frontmatter), or a .zip / .skill archive of one, into
        the skills folder (--skills DIR, SKILLHOST_SKILLS, default $XDG_DATA_HOME/skillhost/skills). It is
        copied into a temporary folder there, validated as 'skillhost validate' does, then renamed into
        place; an invalid skill is refused and nothing is left behind.

        Exit codes: \(ExitCode.invalidPlugin) invalid skill or archive, \(ExitCode.registryError) the id is already used, \(ExitCode.notFound) no such PATH.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one PATH") }
        let record = try HostOptions.host(parsed).addSkill(from: parsed.positionals[0])
        print("added instruction skill \(record.id) (\(record.folder))")
        return ExitCode.success
    }
}
