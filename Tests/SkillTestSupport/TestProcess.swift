import Foundation

/// How a program run by a test ended and what it wrote.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs programs for tests: the one place that starts a `Process`, feeds its stdin and drains both pipes.
public enum TestProcess {
    /// Starts `executable` with `arguments`, writes `stdin` (when given) and closes it, without waiting.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil
    ) throws -> (process: Process, output: Pipe, errors: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Every call a test makes through `skillhost` is recorded: never in the user's own history.
        var environment = environment ?? ProcessInfo.processInfo.environment
        if environment["SKILLHOST_STATE"] == nil { environment["SKILLHOST_STATE"] = TestPackage.testState }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        return (process, output, errors)
    }

    /// Waits for a started process, reading both pipes to the end first so a chatty child cannot block on
    /// a full pipe.
    public static func finish(_ process: Process, output: Pipe, errors: Pipe) -> ProcessResult {
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs a program to completion.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil
    ) throws -> ProcessResult {
        let (process, output, errors) = try start(executable, arguments, environment: environment, stdin: stdin)
        return finish(process, output: output, errors: errors)
    }

    /// Runs a program to completion and returns its standard output; throws (with its stderr) when it fails.
    @discardableResult
    public static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let result = try run(executable, arguments)
        guard result.status == 0 else {
            throw TestSetupError(
                "\(executable) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }

    /// Runs a program that may leave a daemon behind (tmux starts its server so) and waits for the program
    /// itself, with stdin, stdout and stderr on /dev/null (redirect inside a `/bin/sh -c` to keep output).
    /// Not through Foundation's `Process`: it watches a socket its child inherits, and a daemon that keeps it
    /// would make the wait last forever. Returns the wait status.
    public static func runLeavingDaemons(_ argv: [String]) -> Int32 {
        var pid: pid_t = 0
        let words: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { words.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        guard posix_spawn(&pid, argv[0], &actions, nil, words, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}
