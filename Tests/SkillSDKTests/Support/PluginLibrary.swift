import CSkillABI
import Foundation
import SkillJSON
import Testing

/// A built plugin library, loaded the way the host loads it. (Loading plugin code in a test is fine; it is
/// the `skillhost` process that must not during discovery.)
struct PluginLibrary {
    let path: String
    let descriptor: UnsafePointer<skill_plugin_descriptor>

    /// The repository root, from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Where `swift build` put this test binary, which is where it puts the plugin products too.
    static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().path

    /// The Swift plugin product `name` (e.g. "ClockSkill") from the build directory.
    static func swiftProduct(_ name: String) throws -> PluginLibrary {
        let path = "\(buildDirectory)/lib\(name).so"
        try #require(
            FileManager.default.fileExists(atPath: path), "\(path) is missing: run swift build --product \(name)")
        return try PluginLibrary(path: path)
    }

    init(path: String) throws {
        self.path = path
        let handle = try #require(
            dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE), "dlopen \(path): \(String(cString: dlerror()))")
        let symbol = try #require(dlsym(handle, "skill_plugin_entry"), "\(path) has no skill_plugin_entry")
        let entry = unsafeBitCast(symbol, to: skill_plugin_entry_fn.self)
        descriptor = try #require(entry(1, 0, nil), "\(path) returned no descriptor for ABI 1.0")
    }

    /// The manifest the descriptor carries.
    func manifest() throws -> JSONValue {
        try JSONValue(
            parsing: UnsafeRawBufferPointer(
                start: descriptor.pointee.manifest_json, count: descriptor.pointee.manifest_json_length))
    }

    /// Calls a skill on a thread of its own.
    func call(_ skillID: String, _ arguments: JSONValue = [:], host: TestHost = TestHost()) async -> TestHost.Call {
        await host.call(descriptor, skillID, arguments.serialized())
    }

    /// The dynamic symbols the file defines (`nm -D --defined-only`), local ones included.
    static func exportedSymbols(_ path: String) throws -> [String] {
        try run("/usr/bin/env", ["nm", "-D", "--defined-only", path]).split(separator: "\n")
            .compactMap { $0.split(separator: " ").last.map(String.init) }
    }

    /// Runs a program and returns its standard output; fails the test on a non-zero exit.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.joined(separator: " ")) failed: \(errorText)")
        return String(decoding: data, as: UTF8.self)
    }
}
