/// One `skillhost` subcommand. Each lives in its own file under Commands/ and is listed in
/// ``CommandTable/all``: it parses its words, calls the libraries and prints. No logic of its own.
protocol Command {
    /// The word that selects it, e.g. "list".
    static var name: String { get }
    /// One line for `skillhost --help`.
    static var summary: String { get }
    /// The full `--help` text: usage line, description, options, exit codes where special.
    static var help: String { get }
    /// Internal subcommands (the scanner and worker children) are left out of `--help`.
    static var isHidden: Bool { get }
    /// Runs the command; returns the process exit code. Thrown errors are printed by ``ErrorReporter``.
    static func run(_ arguments: [String]) async throws -> Int32
}

extension Command {
    static var isHidden: Bool { false }
}
