import SkillHostCore
import SkillJSON

/// `skillhost install FILE [--json]`: validates a plugin file and puts it into the plugins folder atomically.
enum InstallCommand: Command {
    static let name = "install"
    static let summary = "validate a plugin file and install (or atomically replace) it in the plugins folder"
    static let help = """
        usage: skillhost install FILE [--json]

        Checks FILE as 'skillhost validate' does, then copies it into the plugins folder as <plugin id>.so
        under a temporary name and renames it over the old file: a running host (a chat) sees the old
        plugin or the new one, never a half-written file, and its next call runs the new code. An invalid
        file is never copied. A plugin you trusted (skillhost trust) stays trusted: its pinned hash moves to
        the installed file. An install never pins a plugin that was not trusted.

        Options:
          --json    print {"plugin","version","path","replaced","sha256"} (sha256: the hash now pinned when
                    the plugin was trusted, else null)

        Exit codes: \(ExitCode.success) installed, \(ExitCode.invalidPlugin) invalid plugin, \(ExitCode.pluginCrashed) the file crashed the checker, \(ExitCode.notFound) no such file.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one FILE") }
        let report = try HostOptions.host(parsed).install(path: parsed.positionals[0])
        if parsed.has("--json") {
            HostOptions.printJSON([
                "plugin": .string(report.pluginID), "version": .string(report.version),
                "path": .string(report.installedPath), "replaced": .bool(report.replaced),
                "sha256": report.repinnedSHA256.map(JSONValue.string) ?? .null,
            ])
        } else {
            print("\(report.replaced ? "replaced" : "installed") \(report.pluginID) \(report.version) at \(report.installedPath)")
            if let digest = report.repinnedSHA256 { print("still trusted: pinned sha256 \(digest)") }
        }
        return ExitCode.success
    }
}
