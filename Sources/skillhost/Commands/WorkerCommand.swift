import SkillHostCore

/// `skillhost __worker FILE`: the worker process of `process` isolation (hidden). Loads one plugin and serves
/// calls over stdin/stdout frames until the host closes the pipe. See docs/isolation.md.
enum WorkerCommand: Command {
    static let name = "__worker"
    static let summary = "serve one plugin's calls over pipes (internal)"
    static let isHidden = true
    static let help = """
        usage: skillhost __worker FILE [--as-mb N] [--cpu-s N] [--nofile N]
               skillhost __worker --await-load

        Internal: started by skillhost itself for plugins in `process` isolation. Applies the resource limits
        (0 = none), loads FILE, then answers length-prefixed call frames on stdin with reply frames on stdout.
        The plugin's own stdout goes to stderr. Sandboxed workers also get --sandbox MODE [--sb-read PATH]...
        [--sb-write PATH]... --sb-net none|any|P,P --sb-procs 0|1 and enter the sandbox before anything
        else (docs/isolation.md, "Sandbox").
        `skillhost __worker --await-load` is a spare: it reads those words from one `load` frame on stdin
        first, and exits 0 without loading anything when stdin closes (docs/isolation.md, "Spare worker").
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        await WorkerServer.run(arguments: arguments)
    }
}
