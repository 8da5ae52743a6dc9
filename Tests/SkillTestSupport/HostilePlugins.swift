import Foundation
import SkillHostCore
import SkillJSON

/// Builds the hostile test plugins (`Tests/Fixtures/HostilePlugins/*.c`) with `cc` into a temporary folder
/// once per test run, and finds the `skillhost` binary the workers run as. Nothing is installed.
public enum HostilePlugins {
    /// The package root.
    public static var packageRoot: String { TestPackage.root }

    /// `.build/debug/skillhost`, which the tests start as `skillhost __worker FILE`.
    public static func workerExecutable() throws -> String { try TestPackage.skillhostBinary() }

    /// The path of `lib<name>.so` compiled from `Tests/Fixtures/HostilePlugins/<name>.c` (built once).
    public static func library(_ name: String) throws -> String {
        try CFixtureCompiler.sharedLibrary(
            [packageRoot + "/Tests/Fixtures/HostilePlugins/\(name).c"], flags: ["-O1"], name: "lib\(name).so")
    }

    /// A private copy of a hostile library in a fresh 0700 folder (for tests that change or break the file).
    public static func privateCopy(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "skillhost-hostile-copy-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        let target = directory + "/lib\(name).so"
        try FileManager.default.copyItem(atPath: try library(name), toPath: target)
        return target
    }

    /// A fresh private (0700) host folder with `libhostile.so` installed in its `plugins` folder, and the
    /// host paths over it (registry `config/skill_registry.json`, `cache`, `data`), for end-to-end tests.
    public static func installedRoot(prefix: String) throws -> (root: String, plugin: String, paths: HostPaths) {
        let root = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        chmod(root, 0o700)
        chmod(root + "/plugins", 0o700)
        let plugin = root + "/plugins/libhostile.so"
        try FileManager.default.copyItem(atPath: try library("hostile"), toPath: plugin)
        chmod(plugin, 0o755)
        let paths = HostPaths(
            plugins: root + "/plugins", registry: root + "/config/skill_registry.json", cache: root + "/cache",
            data: root + "/data")
        return (root, plugin, paths)
    }

    /// A pool executor for a hostile library.
    public static func executor(
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
    public static func call(
        _ name: String, _ arguments: JSONValue = [:], path: String, timeout: Double = 10,
        context: SessionContext = SessionContext(), pluginID: String = "hostile"
    ) -> SkillCall {
        SkillCall(
            pluginID: pluginID, pluginPath: path, skillID: "\(pluginID).\(name)", arguments: arguments,
            callID: "test-\(name)", timeout: timeout, dataDirectory: NSTemporaryDirectory(), sessionContext: context)
    }

    /// The error a call throws, or nil when it succeeds.
    public static func failure(of body: () async throws(HostError) -> JSONValue) async -> HostError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}

/// A hostile-plugin test could not be set up (no binary, no compiler).
public struct HostileSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
