import SkillHostCore

/// `skillhost untrust ID [--json]`: removes a plugin's pinned SHA-256.
enum UntrustCommand: Command {
    static let name = "untrust"
    static let summary = "remove a plugin's pinned SHA-256"
    static let help = """
        usage: skillhost untrust PLUGIN_ID [--json]

        Removes plugins.<id>.sha256 from the registry. The plugin is then untrusted: it runs with a warning
        under the "warn" policy and is refused under "required".

        Exit codes: \(ExitCode.notFound) unknown plugin, \(ExitCode.registryError) registry malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one PLUGIN_ID") }
        if let entry = try MCPTrustOutput.trust(parsed, pin: false) {
            MCPTrustOutput.print(entry, json: parsed.has("--json"))
            return ExitCode.success
        }
        let change = try HostOptions.host(parsed).untrust(pluginID: parsed.positionals[0])
        TrustOutput.print(change, json: parsed.has("--json"))
        return ExitCode.success
    }
}
