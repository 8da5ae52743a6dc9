import SkillHostCore

/// `skillhost __scan FILE`: the scanner child (hidden). Loads one plugin file, checks its descriptor and
/// manifest, and prints one JSON line; the host runs it so plugin code never runs in the host itself.
enum ScanCommand: Command {
    static let name = "__scan"
    static let summary = "scan one plugin file (internal)"
    static let isHidden = true
    static let help = """
        usage: skillhost __scan FILE

        Internal: started by skillhost to load FILE in a separate process. Prints one JSON line on stdout:
        {"status":"ok","manifest":{...}} or {"status":"invalid","error":"..."}. The plugin's own stdout goes
        to stderr. Use 'skillhost validate FILE' to check a file yourself.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        guard arguments.count == 1 else { throw UsageError("expected exactly one FILE") }
        return ScannerChild.run(path: arguments[0])
    }
}
