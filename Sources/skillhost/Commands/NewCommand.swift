import Foundation
import SkillHostCore

/// `skillhost new NAME [--lang swift|c] [--dir PATH] [--sdk PATH]`: scaffolds a plugin package.
enum NewCommand: Command {
    static let name = "new"
    static let summary = "scaffold a new plugin package (Swift or C) with a sample skill, a test and build.sh"
    static let help = """
        usage: skillhost new NAME [--lang swift|c] [--dir PATH] [--sdk PATH]

        Writes a plugin package into DIR/NAME (DIR defaults to the current folder): one sample skill,
        NAME.greet; a unit test of it that needs no host; and build.sh, which builds out/NAME.so and runs
        `skillhost validate` on it. A Swift package depends on the SkillHost checkout's SkillSDK by path; a C
        package compiles against the checkout's skill_abi.h and skill_json.h. NAME is the plugin id: 1-40
        characters of a-z, 0-9, '_' and '-', starting with a letter. See docs/authoring.md.

        Options:
          --lang swift|c   the plugin's language (default swift)
          --dir PATH       the folder to create NAME in (default .)
          --sdk PATH       the SkillHost checkout to build against (default: the one this skillhost was
                           built from)

        Exit codes: \(ExitCode.success) written, \(ExitCode.invalidArguments) bad NAME or --lang, \(ExitCode.notFound) no SkillHost checkout found, \(ExitCode.failure) NAME exists.
        """

    /// The checkout this executable was compiled from (this file is Sources/skillhost/Commands/NewCommand.swift).
    static let buildCheckout: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: [], options: ["--lang", "--dir", "--sdk"])
        guard parsed.positionals.count == 1 else { throw UsageError("expected exactly one NAME") }
        let languageName = parsed.options["--lang"] ?? "swift"
        guard let language = PluginScaffold.Language(rawValue: languageName) else {
            throw HostError(.invalidArguments, "--lang \(languageName) is not a language skillhost new writes; use swift or c")
        }
        let scaffold = try PluginScaffold(
            name: parsed.positionals[0], language: language, skillHostRoot: parsed.options["--sdk"] ?? buildCheckout)
        let folder = try scaffold.write(into: parsed.options["--dir"] ?? FileManager.default.currentDirectoryPath)
        print("created \(folder) (\(language.rawValue) plugin \(scaffold.name), skill \(scaffold.name).greet)")
        print("next: cd \(folder) && ./build.sh")
        return ExitCode.success
    }
}
