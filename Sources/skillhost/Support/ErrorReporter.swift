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
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// Maps library errors to exit codes. Library error types are added here as the libraries grow.
enum ExitCodeMapping {
    static func map(_ error: any Error) -> (Int32, String) {
        return (ExitCode.failure, "\(error)")
    }
}
