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
    static var repositoryRoot: String { TestPackage.root }

    /// Where `swift build` put this test binary, which is where it puts the plugin products too.
    static var buildDirectory: String { TestPackage.buildDirectory }

    /// The Swift plugin product `name` (e.g. "ClockSkill") from the build directory.
    static func swiftProduct(_ name: String) throws -> PluginLibrary {
        let path = "\(buildDirectory)/lib\(name).so"
        try #require(
            FileManager.default.fileExists(atPath: path), "\(path) is missing: run swift build --product \(name)")
        return try PluginLibrary(path: path)
    }

    init(path: String) throws {
        self.path = path
        descriptor = try PluginEntry.descriptor(path: path)
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
        try TestProcess.output(executable, arguments)
    }
}
