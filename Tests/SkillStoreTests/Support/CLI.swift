import Foundation

/// The built `skillhost` binary run as a user runs it, over a temporary plugins folder.
enum CLI {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static var executable: String { packageRoot + "/.build/debug/skillhost" }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment(root: root ?? NSTemporaryDirectory() + "skillstore-none")
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        return (process, output, errors)
    }

    /// Runs `skillhost arguments` to its end.
    static func run(_ arguments: [String], root: String? = nil, stdin: String = "") throws -> Run {
        let (process, output, errors) = try start(arguments, root: root, stdin: stdin)
        return finish(process, output, errors)
    }

    /// Waits for a started process and collects its output.
    static func finish(_ process: Process, _ output: Pipe, _ errors: Pipe) -> Run {
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A temporary root whose plugins folder holds the C fixture plugin (Tests/Fixtures/TestPlugins) as
    /// `fixture.so`: `fixture.echo`, `fixture.slow` (runs until its 5 s timeout), `fixture.context`, ….
    static func rootWithFixture() throws -> String {
        let root = NSTemporaryDirectory() + "skillstore-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        process.arguments = [
            "-std=c99", "-D_DEFAULT_SOURCE", "-fPIC", "-shared", "-fvisibility=hidden", "-I",
            packageRoot + "/Sources/CSkillABI/include", packageRoot + "/Tests/Fixtures/TestPlugins/fixture_plugin.c",
            "-o", root + "/plugins/fixture.so",
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SetupError(description: "cc failed on fixture_plugin.c") }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root + "/plugins/fixture.so")
        return root
    }
}
