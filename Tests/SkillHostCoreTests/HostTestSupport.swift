import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Shared helpers for the host tests: the package's paths, temporary folders, the `skillhost` binary, and
/// the C fixture plugin compiled in variants with `cc`.
enum HostTestSupport {
    /// The package root (three levels above this file).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The built `skillhost` binary. `scripts/test.sh` builds it before `swift test`.
    static func skillhostBinary() throws -> String {
        let path = packageRoot + "/.build/debug/skillhost"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSetupError("missing \(path): run 'swift build --product skillhost' (or scripts/test.sh) before the tests")
        }
        return path
    }

    /// A fresh temporary folder.
    static func temporaryDirectory(_ name: String = "skillhost-test") -> String {
        let path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Paths for a host whose folders all live under `root`.
    static func paths(root: String) -> HostPaths {
        HostPaths(plugins: root + "/plugins", registry: root + "/config/skill_registry.json", cache: root + "/cache",
                  data: root + "/data")
    }

    /// A host over a fresh folder with the plugins folder created (and empty).
    static func makeHost(root: String? = nil, scanTimeout: Double = 10) throws -> (host: SkillHost, root: String) {
        let root = root ?? temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let host = SkillHost(paths: paths(root: root), helperExecutable: try skillhostBinary(), scanTimeout: scanTimeout)
        return (host, root)
    }

    // MARK: - Fixture plugin

    private static let buildFolder = temporaryDirectory("skillhost-fixtures")
    private static let built = NSLock()
    nonisolated(unsafe) private static var cache: [String: String] = [:]

    /// Compiles `Tests/Fixtures/TestPlugins/fixture_plugin.c` with extra `-D` definitions (see the file's
    /// header) into a shared library and returns its path; the same variant is compiled once per run.
    static func fixturePlugin(_ defines: [String] = [], shared: Bool = true) throws -> String {
        let key = defines.joined(separator: " ") + (shared ? "" : " exe")
        built.lock()
        defer { built.unlock() }
        if let path = cache[key] { return path }
        let output = buildFolder + "/variant\(cache.count).so"
        var arguments = ["-std=c99", "-D_DEFAULT_SOURCE", "-fPIC", "-I", packageRoot + "/Sources/CSkillABI/include"]
        arguments += shared ? ["-shared", "-fvisibility=hidden"] : ["-pie", "-DNO_ENTRY"]
        arguments += defines.map { "-D" + $0 }
        arguments += [packageRoot + "/Tests/Fixtures/TestPlugins/fixture_plugin.c"]
        if !shared { arguments += [packageRoot + "/Tests/Fixtures/TestPlugins/fixture_main.c"] }
        arguments += ["-o", output]
        let result = try run("/usr/bin/cc", arguments)
        guard result.status == 0 else { throw TestSetupError("cc failed for \(key): \(result.stderr)") }
        cache[key] = output
        return output
    }

    /// Copies a file into a folder under a name; returns the new path.
    @discardableResult
    static func install(_ file: String, into folder: String, as name: String) throws -> String {
        let target = folder + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: file, toPath: target)
        return target
    }

    // MARK: - Processes

    struct ProcessResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to completion.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty child cannot block on a full pipe.
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
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                             stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs the built `skillhost` with `--plugins/--registry/--cache` under `root`.
    static func skillhost(_ arguments: [String], root: String, stdin: String? = nil) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_PLUGINS"] = nil
        environment["SKILLHOST_REGISTRY"] = nil
        environment["SKILLHOST_CACHE"] = nil
        environment["SKILLHOST_SKILLS"] = nil
        let global = ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
        return try run(try skillhostBinary(), arguments + global, environment: environment, stdin: stdin)
    }

    /// Writes text to a file, creating folders.
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// A test could not be set up (missing binary, compiler failure).
struct TestSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
