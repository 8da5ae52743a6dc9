import SkillHostCore

/// `skillhost validate PATH`: checks one plugin file completely without installing it.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "check a plugin file without installing it"
    static let help = """
        usage: skillhost validate PATH [--json]

        Checks PATH as the host would before using it: ELF structure (64-bit shared object for this
        machine, not truncated), then in a child process: loading, the descriptor (magic, ABI major, struct
        size), the manifest against the manifest schema, and every skill's parameter schema. Prints the
        manifest summary, or every problem found.

        Options:
          --json    print {"path","valid","problems":[...],"advice":[...],"manifest":{...}|null}

        Advice lines (e.g. a parameters schema without "additionalProperties": false) do not make the file
        invalid; the SDK's `problems` (import SkillCheck) reports the same problems and advice.

        Exit codes: \(ExitCode.success) valid, \(ExitCode.invalidPlugin) invalid, \(ExitCode.pluginCrashed) the file crashed or hung the checker, \(ExitCode.notFound) no such file.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one PATH") }
        if let code = ValidateSkillFolder.runIfSkillFolder(parsed) { return code }
        let report = try HostOptions.host(parsed).validate(path: parsed.positionals[0])
        if parsed.has("--json") {
            HostOptions.printJSON([
                "path": .string(report.path), "valid": .bool(report.isValid),
                "problems": .array(report.problems.map { .string($0) }),
                "advice": .array(report.advice.map { .string($0) }),
                "manifest": report.manifest?.document ?? .null,
            ])
        } else if let manifest = report.manifest, report.isValid {
            print("\(report.path): valid plugin \(manifest.id) \(manifest.version) (ABI \(manifest.abiVersion)), \(manifest.skills.count) skill(s)")
            for skill in manifest.skills {
                print("  \(skill.id)  [\(skill.permission.rawValue)]  \(skill.title)")
            }
        } else {
            for problem in report.problems { ErrorReporter.printError("validate: \(problem)") }
        }
        if !parsed.has("--json") {
            for advice in report.advice { ErrorReporter.printError("validate: advice: \(advice)") }
        }
        if report.isValid { return ExitCode.success }
        return report.isBroken ? ExitCode.pluginCrashed : ExitCode.invalidPlugin
    }
}
