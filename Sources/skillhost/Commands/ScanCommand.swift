import SkillHostCore

/// `skillhost __scan FILE…`: the scanner child (hidden). Loads plugin files one after another, checks each
/// descriptor and manifest, and prints one JSON line per file; the host runs it so plugin code never runs in
/// the host itself.
enum ScanCommand: Command {
    static let name = "__scan"
    static let summary = "scan one plugin file (internal)"
    static let isHidden = true
    static let help = """
        usage: skillhost __scan [--sb-ns 0|1] FILE...

        Internal: started by skillhost to load each FILE, in order, in a separate, sandboxed process (no
        home, no network, no processes, nothing writable; --sb-ns 0: without namespaces). Prints one JSON
        line per file on stdout as soon as that file is done: {"status":"ok","manifest":{...},"path":"..."}
        or {"status":"invalid","error":"...","path":"..."} (path: the file's absolute path). The plugins'
        own stdout goes to stderr. Use 'skillhost validate FILE' to check a file yourself.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard !arguments.isEmpty else { throw UsageError("expected at least one FILE") }
        return ScannerChild.run(paths: ScannerSandbox.parse(arguments).files)
    }
}
