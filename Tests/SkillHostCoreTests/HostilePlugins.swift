import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Builds the hostile test plugins (`Tests/Fixtures/HostilePlugins/*.c`) with `cc` into a temporary folder
/// once per test run, and finds the `skillhost` binary the workers run as. Nothing is installed.
enum HostilePlugins {
    /// The package root, from this file's path.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `.build/debug/skillhost`, which the tests start as `skillhost __worker FILE`.
    static func workerExecutable() throws -> String {
        let path = packageRoot + "/.build/debug/skillhost"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HostileSetupError(
                "missing \(path): the worker tests start it as 'skillhost __worker'; run 'swift build --product skillhost' first (scripts/test.sh does)")
        }
        return path
    }

    private static let folder: String = {
        let path = NSTemporaryDirectory() + "skillhost-hostile-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o700)
        return path
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: String] = [:]

    /// The path of `lib<name>.so` compiled from `Tests/Fixtures/HostilePlugins/<name>.c` (built once).
    static func library(_ name: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = built[name] { return path }
        let output = folder + "/lib\(name).so"
        let source = packageRoot + "/Tests/Fixtures/HostilePlugins/\(name).c"
        let status = try run("/usr/bin/cc", [
            "-std=c99", "-D_DEFAULT_SOURCE", "-shared", "-fPIC", "-O1", "-I", packageRoot + "/Sources/CSkillABI/include",
            source, "-o", output,
        ])
        guard status == 0 else { throw HostileSetupError("cc failed to build \(source) (status \(status))") }
        built[name] = output
        return output
    }

    /// A private copy of a hostile library in a fresh 0700 folder (for tests that change or break the file).
    static func privateCopy(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "skillhost-hostile-copy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        let target = directory + "/lib\(name).so"
        try FileManager.default.copyItem(atPath: try library(name), toPath: target)
        return target
    }

    /// A pool executor for a hostile library.
    static func executor(
        _ path: String, pluginID: String = "hostile", maxWorkers: Int = 2, limits: ResourceLimits = .defaults,
        startupTimeout: Double = 10, crashPolicy: CrashPolicy = CrashPolicy(initialBackoff: 0.01),
        healthStore: PluginHealthStore? = nil
    ) throws -> WorkerPoolExecutor {
        WorkerPoolExecutor(
            WorkerPoolConfiguration(
                pluginID: pluginID, pluginPath: path, workerExecutable: try workerExecutable(), maxWorkers: maxWorkers,
                limits: limits, startupTimeout: startupTimeout, crashPolicy: crashPolicy, healthStore: healthStore))
    }

    /// A call of `hostile.<name>`.
    static func call(
        _ name: String, _ arguments: JSONValue = [:], path: String, timeout: Double = 10,
        context: SessionContext = SessionContext(), pluginID: String = "hostile"
    ) -> SkillCall {
        SkillCall(
            pluginID: pluginID, pluginPath: path, skillID: "\(pluginID).\(name)", arguments: arguments,
            callID: "test-\(name)", timeout: timeout, dataDirectory: NSTemporaryDirectory(), sessionContext: context)
    }

    /// The error a call throws, or nil when it succeeds.
    static func failure(of body: () async throws(HostError) -> JSONValue) async -> HostError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A hostile-plugin test could not be set up (no binary, no compiler).
struct HostileSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
