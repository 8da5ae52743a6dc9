import SkillHostCore
import SkillJSON

/// `skillhost trust ID [--json]`: pins the SHA-256 of a plugin's file in the registry.
enum TrustCommand: Command {
    static let name = "trust"
    static let summary = "pin a plugin file's SHA-256 so a changed file is refused"
    static let help = """
        usage: skillhost trust PLUGIN_ID [--json]

        Computes the SHA-256 of the plugin's file and records it in the registry (plugins.<id>.sha256).
        From then on the plugin runs only while its file has that digest; after an update, review the new
        file and run 'skillhost trust' again. The registry's "trust" policy ("warn", the default, or
        "required") decides whether untrusted plugins may run. Files or folders others can write are
        refused (fix with 'chmod go-w FILE').

        Options:
          --json    print {"plugin","path","sha256","previous_sha256"}

        Exit codes: \(ExitCode.notFound) unknown plugin, \(ExitCode.denied) unsafe file permissions, \(ExitCode.registryError) registry malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected one PLUGIN_ID") }
        let change = try HostOptions.host(parsed).trust(pluginID: parsed.positionals[0])
        TrustOutput.print(change, json: parsed.has("--json"))
        return ExitCode.success
    }
}

/// Prints what `trust` / `untrust` changed.
enum TrustOutput {
    static func print(_ change: SkillHost.TrustChange, json: Bool) {
        if json {
            HostOptions.printJSON([
                "plugin": .string(change.pluginID), "path": .string(change.path),
                "sha256": change.sha256.map(JSONValue.string) ?? .null,
                "previous_sha256": change.previousSHA256.map(JSONValue.string) ?? .null,
            ])
        } else if let digest = change.sha256 {
            let note = change.previousSHA256.map { $0 == digest ? " (unchanged)" : " (was \($0))" } ?? ""
            Swift.print("trusted plugin \(change.pluginID): sha256 \(digest)\(note) for \(change.path)")
        } else {
            Swift.print("plugin \(change.pluginID) is no longer trusted (\(change.path))")
        }
    }
}
