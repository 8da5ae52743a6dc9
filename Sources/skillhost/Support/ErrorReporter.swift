import JSONSchema
import SkillHostCore
import SkillStore
#if canImport(Glibc)
import Glibc
#endif

/// The one place that turns thrown errors into a one-line message on stderr and an exit code.
enum ErrorReporter {
    /// Runs `command`, printing any thrown error as `skillhost <command>: <message>`.
    static func run(_ command: any Command.Type, _ arguments: [String]) async -> Int32 {
        do {
            return try await command.run(arguments)
        } catch let error as UsageError {
            printError("\(command.name): \(error.description) (see 'skillhost \(command.name) --help')")
            return ExitCode.usage
        } catch {
            let (code, message) = ExitCodeMapping.map(error)
            printError("\(command.name): \(message)")
            return code
        }
    }

    /// Writes one line to stderr.
    static func printError(_ message: String) {
        let line = "skillhost: " + message.split(separator: "\n").joined(separator: " ") + "\n"
        Posix.writeAll(2, Array(line.utf8))
    }
}

/// Maps library errors to exit codes. Library error types are added here as the libraries grow.
enum ExitCodeMapping {
    /// The exit code of each ``HostError/Kind`` (docs/cli.md).
    static func code(for kind: HostError.Kind) -> Int32 {
        switch kind {
        case .notFound: ExitCode.notFound
        case .disabled: ExitCode.disabled
        case .invalidArguments: ExitCode.invalidArguments
        case .skillFailed, .invalidResult: ExitCode.skillFailed
        case .timeout: ExitCode.timeout
        case .pluginCrashed: ExitCode.pluginCrashed
        case .invalidPlugin: ExitCode.invalidPlugin
        case .denied: ExitCode.denied
        case .rateLimited: ExitCode.rateLimited
        case .registry: ExitCode.registryError
        case .cancelled, .io: ExitCode.failure
        }
    }

    static func map(_ error: any Error) -> (Int32, String) {
        if let error = error as? HostError { return (code(for: error.kind), error.message) }
        if let error = error as? SchemaFileCheck.InputError { return (ExitCode.usage, error.message) }
        if let error = error as? StoreError { return (error.kind == .notFound ? ExitCode.notFound : ExitCode.failure, error.message) }
        return (ExitCode.failure, "\(error)")
    }
}
