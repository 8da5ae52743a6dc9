import Foundation

/// Where the package and its built products are, for every test target: written once here instead of in
/// each target's helpers.
public enum TestPackage {
    /// The package root (three levels above this file: `Tests/SkillTestSupport/TestPackage.swift`).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The built `skillhost` binary (`.build/debug/skillhost`); `scripts/test.sh` builds it before `swift test`.
    /// `SKILLHOST_TEST_BINARY` names another build instead, e.g. an older commit's, to watch a test that
    /// guards a fix fail on the code before it.
    public static var skillhostPath: String {
        ProcessInfo.processInfo.environment["SKILLHOST_TEST_BINARY"] ?? root + "/.build/debug/skillhost"
    }

    /// The built `skillhost` binary, or an error that says how to build it.
    public static func skillhostBinary() throws -> String {
        let path = skillhostPath
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSetupError("missing \(path): run 'swift build --product skillhost' (or scripts/test.sh) before the tests")
        }
        return path
    }

    /// The folder `swift build` put the running test binary in, which is where it puts the plugin products.
    public static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().path

    /// The C ABI headers (`Sources/CSkillABI/include`), for compiling C fixtures.
    public static var abiInclude: String { root + "/Sources/CSkillABI/include" }

    /// A fresh temporary folder whose name starts with `name`.
    /// The history folder of the `skillhost` processes this test run starts without one of their own
    /// (`SKILLHOST_STATE`): every call is recorded, and never in the user's history.
    public static let testState: String = temporaryDirectory("skillhost-test-state")

    public static func temporaryDirectory(_ name: String = "skillhost-test") -> String {
        let path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes text to a file, creating its folders.
    public static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// A test could not be set up (missing binary, compiler or peer failure).
public struct TestSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What a test waited for did not happen (a message, a file, a state), with what it saw instead.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
