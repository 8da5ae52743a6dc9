import Foundation
import SkillHostCore
import SkillJSON

/// `skillhost install FILE.skillpkg|FILE.so [--upgrade] [--allow-unsigned] [--json]`: installs a plugin package
/// (checked, signature verified, validated) or a plugin library, atomically.
enum InstallCommand: Command {
    static let name = "install"
    static let summary = "install a plugin package (.skillpkg: signature verified) or a plugin file, atomically"
    static let help = """
        usage: skillhost install FILE.skillpkg [--upgrade] [--allow-unsigned] [--json]
               skillhost install FILE.so [--json]

        A package (.skillpkg, made by 'skillhost pack'): checks the archive and every file against the
        signed list in it, verifies the signature with the keys you trust ('skillhost keys trust') and the
        administrator's policy allows, applies the policy, validates the library for this machine in the
        sandboxed checker and compares its manifest with the package's, then installs it as <plugin id>.so
        in one rename. The registry records the publisher and pins the file's SHA-256. Nothing is written
        unless every check passed. An unsigned package, one signed by a key you do not trust, or one whose
        signature does not verify is refused unless you pass --allow-unsigned (then nothing vouches for
        it; its SHA-256 is pinned).

        A plugin file (.so, your own build): checked as 'skillhost validate' does, then copied into the
        plugins folder under a temporary name and renamed over the old file: a running host (a chat) sees
        the old plugin or the new one, never a half-written file, and its next call runs the new code. A
        plugin you trusted (skillhost trust) stays trusted: its pinned hash moves to the installed file.

        Options:
          --upgrade          replace the installed version of the plugin: only with a higher version that
                             keeps every skill id, from the same publisher
          --allow-unsigned   install a package whose signature is missing, unknown or wrong
          --json             print {"plugin","version","path","replaced","sha256","publisher","previous_version"}

        Exit codes: \(ExitCode.success) installed, \(ExitCode.invalidPlugin) invalid package or plugin, \(ExitCode.denied) signature or policy refused it,
        \(ExitCode.invalidArguments) installed already or not an upgrade, \(ExitCode.pluginCrashed) the file crashed the checker, \(ExitCode.notFound) no such file.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json", "--upgrade", "--allow-unsigned"], options: [])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one FILE") }
        let file = parsed.positionals[0]
        let host = HostOptions.host(parsed)
        let report: InstallReport
        if isPackage(file) {
            report = try host.installPackage(
                path: file,
                options: .init(allowUnsigned: parsed.has("--allow-unsigned"), upgrade: parsed.has("--upgrade")))
        } else {
            if parsed.has("--upgrade") || parsed.has("--allow-unsigned") {
                throw UsageError("--upgrade and --allow-unsigned apply to packages (.skillpkg); a .so file is installed as it is")
            }
            report = try host.install(path: file)
        }
        if parsed.has("--json") {
            HostOptions.printJSON([
                "plugin": .string(report.pluginID), "version": .string(report.version),
                "path": .string(report.installedPath), "replaced": .bool(report.replaced),
                "sha256": report.repinnedSHA256.map(JSONValue.string) ?? .null,
                "publisher": report.publisher.map { ["id": .string($0.key.id), "name": .string($0.name)] } ?? .null,
                "previous_version": report.previousVersion.map(JSONValue.string) ?? .null,
            ])
            return ExitCode.success
        }
        let verb = report.previousVersion.map { "upgraded \(report.pluginID) \($0) to" } ?? (report.replaced ? "replaced \(report.pluginID)" : "installed \(report.pluginID)")
        print("\(verb) \(report.version) at \(report.installedPath)")
        if isPackage(file) {
            if let publisher = report.publisher {
                print("publisher: \(publisher.label), signature verified; sha256 \(report.repinnedSHA256 ?? "") pinned")
            } else {
                print("unsigned (--allow-unsigned): nothing vouches for it; sha256 \(report.repinnedSHA256 ?? "") pinned")
            }
        } else if let digest = report.repinnedSHA256 {
            print("still trusted: pinned sha256 \(digest)")
        }
        return ExitCode.success
    }

    /// Whether `file` is a plugin package: named `.skillpkg`, or a zip archive.
    static func isPackage(_ file: String) -> Bool {
        if file.hasSuffix(".skillpkg") { return true }
        guard let handle = FileHandle(forReadingAtPath: file) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) == Data([0x50, 0x4B, 0x03, 0x04])
    }
}
