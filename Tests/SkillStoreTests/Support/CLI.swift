import Foundation

/// The built `skillhost` binary run as a user runs it, over a temporary plugins folder.
enum CLI {
    static let packageRoot = TestPackage.root

    static var executable: String { packageRoot + "/.build/debug/skillhost" }

    typealias Run = ProcessResult

    struct SetupError: Error, CustomStringConvertible { var description: String }

    /// The environment of a child: its own plugins, registry, cache, data and state folders under `root`.
    static func environment(root: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "SKILLHOST_MODEL", "SKILLHOST_STATE"] { environment[key] = nil }
        environment["SKILLHOST_PLUGINS"] = root + "/plugins"
        environment["SKILLHOST_REGISTRY"] = root + "/skill_registry.json"
        environment["SKILLHOST_CACHE"] = root + "/cache"
        environment["XDG_DATA_HOME"] = root + "/data"
        environment["XDG_STATE_HOME"] = root + "/xdg-state"
        return environment
    }

    /// Starts `skillhost arguments` with `stdin`, without waiting.
    static func start(_ arguments: [String], root: String? = nil, stdin: String = "") throws -> (Process, Pipe, Pipe) {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw SetupError(description: "missing \(executable): run 'swift build' first (scripts/test.sh does)")
        }
        let started = try TestProcess.start(
            executable, arguments, environment: environment(root: root ?? NSTemporaryDirectory() + "skillstore-none"),
            stdin: stdin)
        return (started.process, started.output, started.errors)
    }

    /// Runs `skillhost arguments` to its end.
    static func run(_ arguments: [String], root: String? = nil, stdin: String = "") throws -> Run {
        let (process, output, errors) = try start(arguments, root: root, stdin: stdin)
        return finish(process, output, errors)
    }

    /// Waits for a started process and collects its output.
    static func finish(_ process: Process, _ output: Pipe, _ errors: Pipe) -> Run {
        TestProcess.finish(process, output: output, errors: errors)
    }

    /// A temporary root whose plugins folder holds the C fixture plugin (Tests/Fixtures/TestPlugins) as
    /// `fixture.so`: `fixture.echo`, `fixture.slow` (runs until its 5 s timeout), `fixture.context`, ….
    static func rootWithFixture() throws -> String {
        let root = NSTemporaryDirectory() + "skillstore-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try HostTestSupport.fixturePlugin(), toPath: root + "/plugins/fixture.so")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/plugins/fixture.so")
        return root
    }
}
