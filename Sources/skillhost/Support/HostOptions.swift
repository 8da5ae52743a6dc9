import Foundation
import SkillHostCore
import SkillJSON

/// Resolves the global options (`--plugins`, `--registry`, `--cache`, their env variables and the XDG
/// defaults) and builds the ``SkillHost`` every host command uses.
enum HostOptions {
    /// The paths from flags, then environment, then defaults.
    static func paths(_ arguments: ParsedArguments) -> HostPaths {
        HostPaths.resolve(
            plugins: arguments.options["--plugins"], registry: arguments.options["--registry"],
            cache: arguments.options["--cache"], skills: arguments.options["--skills"],
            project: Posix.resolvedPath("."), environment: Posix.environment())
    }

    /// This executable, started again as the scanner child and the worker.
    static var helperExecutable: String {
        Posix.executablePath() ?? CommandLine.arguments[0]
    }

    /// The host for these options, with the standard executors and pre-call gates; its warnings go to
    /// stderr.
    static func host(_ arguments: ParsedArguments) -> SkillHost {
        SkillHost(
            paths: paths(arguments), helperExecutable: helperExecutable, diagnostics: standardErrorSink,
            pluginOutput: pluginOutput(arguments))
    }

    /// Where plugins' stderr goes: with `--verbose`, to stderr as `[plugin] line` (already stripped of escape
    /// sequences and control characters); otherwise nowhere on the terminal.
    static func pluginOutput(_ arguments: ParsedArguments) -> PluginOutputSink {
        guard arguments.has("--verbose") else { return .discard }
        return PluginOutputSink { line in
            Posix.writeAll(2, Array("[\(line.pluginID)] \(line.text)\n".utf8))
        }
    }

    /// Writes each diagnostic line as it comes (it starts with "warning: " where that matters) to stderr.
    static let standardErrorSink = DiagnosticSink { _, line in
        Posix.writeAll(2, Array((line + "\n").utf8))
    }

    /// Prints a JSON value to stdout, pretty-printed.
    static func printJSON(_ value: JSONValue) {
        print(value.serialized(options: .prettyPrinted))
    }
}
