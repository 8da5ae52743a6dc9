import Synchronization

/// How a process that runs plugin code (a worker, the scanner) is started inside its sandbox's namespaces:
/// through `skillhost-sandbox`, the small C program installed next to `skillhost`, which makes the namespaces
/// and then execs the process fresh. A process that made them itself would have to fork after it had run a
/// while, and its child would fault in again every page its parent had touched (milliseconds per worker). When
/// the program is missing the process makes them itself (the same layers, slower; `--sb-ns 1` on its command
/// line tells it to).
enum NamespaceLauncher {
    /// The program's file name, beside the `skillhost` executable.
    static let programName = "skillhost-sandbox"

    private static let found = Mutex<[String: String?]>([:])

    /// The program next to `executable`, when it is installed there.
    static func program(besides executable: String) -> String? {
        if let known = found.withLock({ $0[executable] }) { return known }
        let candidate = Posix.directoryName(of: executable) + "/" + programName
        let program: String? = Posix.isExecutableFile(candidate) ? candidate : nil
        found.withLock { $0[executable] = program }
        return program
    }

    /// What to start for `executable arguments` with namespaces wanted or not: through the program when it is
    /// installed, else as it is.
    static func commandLine(_ executable: String, _ arguments: [String], namespaces: Bool) -> (executable: String, arguments: [String]) {
        guard namespaces, let program = program(besides: executable) else { return (executable, arguments) }
        return (program, ["--", executable] + arguments)
    }
}
