import SkillHostCore
import SkillJSON

/// `skillhost sdk path [--include|--pkg-config|--json]`: where the SDK plugin authors build against is.
enum SDKCommand: Command {
    static let name = "sdk"
    static let summary = "print where the installed plugin SDK is (Swift package, C headers, pkg-config)"
    static let help = """
        usage: skillhost sdk path [--include | --pkg-config | --json]

        Prints the folder of the Swift SDK package (products SkillSDK and SkillCheck) that plugins build
        against: the one installed beside this skillhost (<prefix>/share/skillhost/sdk/skillhost-sdk-<ABI>),
        or SKILLHOST_SDK when set. 'skillhost new' writes packages that depend on it.

        Options:
          --include      print the folder holding skill_abi.h and skill_json.h instead (for cc -I)
          --pkg-config   print the folder holding skillhost.pc (for PKG_CONFIG_PATH)
          --json         print {"package","include","pkg_config","documentation","abi_version","source"}

        Exit codes: \(ExitCode.notFound) when no SDK is found (install SkillHost with scripts/install.sh).
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--include", "--pkg-config", "--json"], options: [])
        guard parsed.positionals == ["path"] else {
            throw UsageError(parsed.positionals.isEmpty ? "expected 'path'" : "unknown sdk subcommand '\(parsed.positionals[0])'; use 'sdk path'")
        }
        let location = try SDKLocation.find(executable: Posix.executablePath(), environment: Posix.environment())
        if parsed.has("--json") {
            HostOptions.printJSON([
                "package": .string(location.package), "include": .string(location.include),
                "pkg_config": location.pkgConfig.map(JSONValue.string) ?? .null,
                "documentation": location.documentation.map(JSONValue.string) ?? .null,
                "abi_version": .string(SkillDefaults.abiVersion), "source": .string(location.source.rawValue),
            ])
        } else if parsed.has("--include") {
            print(location.include)
        } else if parsed.has("--pkg-config") {
            guard let folder = location.pkgConfig else {
                throw HostError(.notFound, "the SDK at \(location.package) (\(location.source.rawValue)) has no skillhost.pc; use 'skillhost sdk path --include' for the headers")
            }
            print(folder)
        } else {
            print(location.package)
        }
        return ExitCode.success
    }
}
