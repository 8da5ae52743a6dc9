import Foundation

/// Compiles C test fixtures (plugins, hosts, executables) with `cc` against the package's ABI headers, each
/// distinct build once per test run.
public enum CFixtureCompiler {
    private static let folder: String = {
        let path = NSTemporaryDirectory() + "skillhost-fixtures-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o700)
        return path
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [[String]: String] = [:]

    /// The common flags: C99, POSIX, the ABI include folder.
    public static let baseFlags = ["-std=c99", "-D_DEFAULT_SOURCE", "-I", TestPackage.abiInclude]

    /// Compiles `sources` with `flags` (after `baseFlags`) into a file named `name` in a private 0700
    /// folder and returns its path; the same sources and flags are compiled once per run.
    public static func compile(_ sources: [String], flags: [String], name: String) throws -> String {
        let key = sources + flags + [name]
        lock.lock()
        defer { lock.unlock() }
        if let path = built[key] { return path }
        // One folder per build, so the file keeps exactly the name asked for.
        let directory = folder + "/\(built.count)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = directory + "/" + name
        let result = try TestProcess.run("/usr/bin/cc", baseFlags + flags + sources + ["-o", output])
        guard result.status == 0 else {
            throw TestSetupError("cc failed to build \(sources.joined(separator: " ")) \(flags.joined(separator: " ")): \(result.stderr)")
        }
        built[key] = output
        return output
    }

    /// Compiles C sources into a shared library (`-shared -fPIC`, plus `flags`).
    public static func sharedLibrary(_ sources: [String], flags: [String] = [], name: String) throws -> String {
        try compile(sources, flags: ["-shared", "-fPIC"] + flags, name: name)
    }
}
