import Foundation

/// SkillHost installed the way a user installs it, for the tests of what third-party authors do with it
/// (issue #32): `scripts/install.sh --prebuilt` puts this build (`.build/debug`, `.build/plugins`) and the
/// SDK into a temporary prefix, which is then copied elsewhere and deleted, so nothing the tests run can
/// find the original prefix, and the installed `skillhost` is not inside the checkout's `.build`.
///
/// Installed once per test process, in a folder under the temporary directory that keeps its name between
/// runs (`skillhost-installed/`), so SwiftPM's build folder for the SDK (`scratch`) stays valid: the prefix
/// is installed again only when what goes into it changed (a digest of the installed sources and scripts
/// and of the binaries' status), because a reinstalled SDK has new files and SwiftPM would rebuild it all.
public enum InstalledPrefix {
    /// The folder everything lives in.
    public static let root = NSTemporaryDirectory() + "skillhost-installed-\(getuid())"
    /// The prefix the tests use (the copy).
    public static var prefix: String { root + "/elsewhere/prefix" }
    /// SwiftPM's build folder for plugin packages built against the installed SDK.
    public static var scratch: String { root + "/scratch" }
    /// The installed `skillhost`.
    public static var skillhost: String { prefix + "/bin/skillhost" }
    /// The installed Swift SDK package.
    public static var sdk: String { prefix + "/share/skillhost/sdk/skillhost-sdk-1.0" }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var ready = false

    /// The prefix, installed now unless this process or an earlier run with the same inputs already did.
    @discardableResult
    public static func install() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if ready { return prefix }
        let stamp = try inputsDigest()
        let stampFile = root + "/elsewhere/installed-from"
        if (try? String(contentsOfFile: stampFile, encoding: .utf8)) == stamp, FileManager.default.isExecutableFile(atPath: skillhost) {
            ready = true
            return prefix
        }
        let manager = FileManager.default
        try? manager.removeItem(atPath: root + "/elsewhere")
        let original = root + "/original"
        try? manager.removeItem(atPath: original)
        try manager.createDirectory(atPath: original, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["PREFIX"] = original + "/prefix"
        environment["SKILLHOST_PLUGINS"] = original + "/plugins"
        environment["SKILLHOST_REGISTRY"] = original + "/config/skill_registry.json"
        environment["SKILLHOST_SKILLS"] = original + "/skills"
        environment["SKILLHOST_CACHE"] = original + "/cache"
        environment["XDG_DATA_HOME"] = original + "/data"
        let installed = try TestProcess.run(
            "/bin/bash", [TestPackage.root + "/scripts/install.sh", "--prebuilt", TestPackage.root + "/.build/debug", TestPackage.root + "/.build/plugins"],
            environment: environment)
        guard installed.status == 0 else {
            throw TestSetupError("scripts/install.sh --prebuilt failed (\(installed.status)):\n\(installed.stdout)\n\(installed.stderr)")
        }
        try manager.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
        try TestProcess.output("/bin/cp", ["-a", original + "/prefix", prefix])
        try manager.removeItem(atPath: original)
        try stamp.write(toFile: stampFile, atomically: true, encoding: .utf8)
        ready = true
        return prefix
    }

    /// A digest of everything the prefix is made from.
    private static func inputsDigest() throws -> String {
        let package = TestPackage.root
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) { for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
        var files = ["scripts/install.sh", "scripts/install-sdk.sh", "scripts/sdk/Package.swift", "README.md"]
        for folder in ["Sources/CSkillABI", "Sources/SkillJSON", "Sources/SkillContract", "Sources/CPosixEvents", "Sources/SkillPosix", "Sources/SkillSDK",
                       "Sources/JSONSchema", "Sources/StableHash", "Sources/ManifestCheck", "Sources/SkillCheck", "docs", "Plugins/sysinfo"] {
            let names = FileManager.default.subpaths(atPath: package + "/" + folder) ?? []
            files += names.sorted().map { folder + "/" + $0 }
        }
        for file in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: package + "/" + file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            mix(file.utf8)
            mix(try Data(contentsOf: URL(fileURLWithPath: package + "/" + file)))
        }
        for binary in [".build/debug/skillhost", ".build/debug/skillhost-sandbox"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: package + "/" + binary)
            mix("\(binary) \(attributes[.size] ?? 0) \(attributes[.modificationDate] ?? "")".utf8)
        }
        return String(hash, radix: 16)
    }
}
