import Foundation
import SkillHostCore

/// `skillhost new NAME [--lang swift|c] [--dir PATH] [--sdk PATH|URL@VERSION]`: scaffolds a plugin package.
enum NewCommand: Command {
    static let name = "new"
    static let summary = "scaffold a new plugin package (Swift or C) with a sample skill, a test and build.sh"
    static let help = """
        usage: skillhost new NAME [--lang swift|c] [--dir PATH] [--sdk PATH|URL@VERSION]

        Writes a plugin package into DIR/NAME (DIR defaults to the current folder): one sample skill,
        NAME.greet; a unit test of it that needs no host; and build.sh, which builds out/NAME.so and runs
        `skillhost validate` on it. It builds against the SkillHost SDK installed with skillhost
        ('skillhost sdk path' prints where): a Swift package depends on its SkillSDK and SkillCheck by path,
        a C package's build.sh finds skill_abi.h and skill_json.h with 'pkg-config --cflags skillhost' or
        'skillhost sdk path --include'. NAME is the plugin id: 1-40 characters of a-z, 0-9, '_' and '-',
        starting with a letter. See docs/authoring.md.

        Options:
          --lang swift|c       the plugin's language (default swift)
          --dir PATH           the folder to create NAME in (default .)
          --sdk PATH           build against this SDK folder (an installed SDK or a SkillHost checkout)
          --sdk URL@VERSION    Swift: depend on a published SDK package by git URL, from VERSION on, e.g.
                               https://example.com/skillhost-sdk.git@1.0.0

        Environment: SKILLHOST_SDK names the SDK folder when --sdk is not given.

        Exit codes: \(ExitCode.success) written, \(ExitCode.invalidArguments) bad NAME, --lang or --sdk, \(ExitCode.notFound) no SDK found, \(ExitCode.failure) NAME exists.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: ["--lang", "--dir", "--sdk"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one NAME") }
        let languageName = parsed.options["--lang"] ?? "swift"
        guard let language = PluginScaffold.Language(rawValue: languageName) else {
            throw HostError(.invalidArguments, "--lang \(languageName) is not a language skillhost new writes; use swift or c")
        }
        let sdk: PluginScaffold.SDKDependency
        var documentation: String?
        if let option = parsed.options["--sdk"] {
            sdk = try PluginScaffold.SDKDependency(option: option)
        } else {
            let location = try SDKLocation.find(executable: Posix.executablePath(), environment: Posix.environment())
            sdk = .path(location)
            documentation = location.documentation
        }
        let scaffold = try PluginScaffold(
            name: parsed.positionals[0], language: language, sdk: sdk, skillhost: Posix.executablePath(),
            documentation: documentation)
        let folder = try scaffold.write(into: parsed.options["--dir"] ?? FileManager.default.currentDirectoryPath)
        print("created \(folder) (\(language.rawValue) plugin \(scaffold.name), skill \(scaffold.name).greet)")
        switch sdk {
        case .path(let location): print("SDK: \(location.package)")
        case .git(let url, let version): print("SDK: \(url) from \(version)")
        }
        print("next: cd \(folder) && ./build.sh")
        return ExitCode.success
    }
}
