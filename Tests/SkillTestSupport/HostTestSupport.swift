import Foundation
import SkillHostCore
import SkillJSON

/// Shared helpers for the host and CLI tests: the package's paths, temporary folders, the `skillhost` binary,
/// and the C fixture plugin compiled in variants with `cc`. The generic parts forward to `TestPackage`,
/// `TestProcess` and `CFixtureCompiler`; the names stay as the tests know them.
public enum HostTestSupport {
    /// The package root.
    public static var packageRoot: String { TestPackage.root }

    /// The built `skillhost` binary. `scripts/test.sh` builds it before `swift test`.
    public static func skillhostBinary() throws -> String { try TestPackage.skillhostBinary() }

    /// The whole text of `/proc/<pid>/maps` ("" when the process is gone). Read to the end: Foundation's
    /// `String(contentsOfFile:)` reads a `/proc` file (size 0) in one 4 KiB read, which cuts a real
    /// process's map short, so a "does not map X" check would pass for a library mapped after the cut.
    public static func memoryMap(of pid: Int64) -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// A fresh temporary folder.
    public static func temporaryDirectory(_ name: String = "skillhost-test") -> String {
        TestPackage.temporaryDirectory(name)
    }

    /// Paths for a host whose folders all live under `root`.
    /// The administrator's policy is `root/admin/policy.json` (absent unless a test writes it): a test never
    /// reads, or writes, the machine's `/etc/skillhost/policy.json`.
    public static func paths(root: String) -> HostPaths {
        HostPaths(plugins: root + "/plugins", registry: root + "/config/skill_registry.json", cache: root + "/cache",
                  data: root + "/data", policyFiles: [root + "/admin/policy.json"])
    }

    /// A host over a fresh folder with the plugins folder created (and empty).
    public static func makeHost(root: String? = nil, scanTimeout: Double = 10) throws -> (host: SkillHost, root: String) {
        let root = root ?? temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let host = SkillHost(paths: paths(root: root), helperExecutable: try skillhostBinary(), scanTimeout: scanTimeout)
        return (host, root)
    }

    /// A host over a fresh folder with the fixture plugin installed as `fixture.so` and `registry` written
    /// (by default: the fixture runs in-process).
    public static func fixtureHost(
        registry: String = #"{"version": 1, "plugins": {"fixture": {"isolation": "inprocess"}}}"#
    ) throws -> (host: SkillHost, root: String) {
        let (host, root) = try makeHost()
        try install(try fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try write(registry, to: host.paths.registry)
        return (host, root)
    }

    /// The error a call throws, or nil when it succeeds.
    public static func failure(of body: () async throws(HostError) -> JSONValue) async -> HostError? {
        await HostilePlugins.failure(of: body)
    }

    // MARK: - Fixture plugin

    /// Compiles `Tests/Fixtures/TestPlugins/fixture_plugin.c` with extra `-D` definitions (see the file's
    /// header) into a shared library and returns its path; the same variant is compiled once per run.
    public static func fixturePlugin(_ defines: [String] = [], shared: Bool = true) throws -> String {
        let fixtures = packageRoot + "/Tests/Fixtures/TestPlugins/"
        var sources = [fixtures + "fixture_plugin.c"]
        var flags = ["-fPIC"]
        flags += shared ? ["-shared", "-fvisibility=hidden"] : ["-pie", "-DNO_ENTRY"]
        flags += defines.map { "-D" + $0 }
        if !shared { sources.append(fixtures + "fixture_main.c") }
        return try CFixtureCompiler.compile(sources, flags: flags, name: "variant.so")
    }

    /// The fixture plugin with `manifest` (JSON text, any bytes) as its manifest instead of the built-in one,
    /// compiled in (`MANIFEST_HEADER`): a plugin being scanned can read no file at load time.
    public static func fixturePlugin(manifest: String, _ defines: [String] = []) throws -> String {
        var literal = ""
        for byte in manifest.utf8 {
            literal += byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "?")
                ? String(UnicodeScalar(byte)) : String(format: "\\%03o", byte)
        }
        let header = temporaryDirectory("skillhost-manifest") + "/manifest.h"
        try write("static const char fixture_manifest_text[] = \"\(literal)\";\n", to: header)
        return try fixturePlugin(defines + ["MANIFEST_HEADER=\"\(header)\""])
    }

    /// Copies a file into a folder under a name; returns the new path.
    @discardableResult
    public static func install(_ file: String, into folder: String, as name: String) throws -> String {
        let target = folder + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: file, toPath: target)
        return target
    }

    // MARK: - Processes

    /// How a program ended (`status`, `stdout`, `stderr`).
    public typealias ProcessResult = SkillTestSupport.ProcessResult

    /// Runs a program to completion.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String? = nil) throws -> ProcessResult {
        try TestProcess.run(executable, arguments, environment: environment, stdin: stdin)
    }

    /// Runs the built `skillhost` with `--plugins/--registry/--cache` under `root`; in the working folder
    /// `folder` when given (where a command looks for a project's skills), else in this process's.
    public static func skillhost(_ arguments: [String], root: String, stdin: String? = nil, in folder: String? = nil) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"  // never the user's own history
        environment["SKILLHOST_PLUGINS"] = nil
        environment["SKILLHOST_REGISTRY"] = nil
        environment["SKILLHOST_CACHE"] = nil
        environment["SKILLHOST_SKILLS"] = nil
        let global = ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
        guard let folder else { return try run(try skillhostBinary(), arguments + global, environment: environment, stdin: stdin) }
        return try run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder, try skillhostBinary()] + arguments + global, environment: environment, stdin: stdin)
    }

    /// Writes text to a file, creating folders.
    public static func write(_ text: String, to path: String) throws { try TestPackage.write(text, to: path) }
}
