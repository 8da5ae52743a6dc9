import CSkillABI
import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The plugin ABI across releases: every released `skill_abi.h` (and `skill_json.h`) is kept in
/// Tests/Fixtures/ABI/released/<MAJOR.MINOR>/; plugins built against each run on this host, a host built
/// against each runs this package's plugins, and a plugin that needs a newer minor than this host's is
/// refused with one line naming both versions.
@Suite("ABI across releases", .serialized)
struct ABIReleasesTests {
    static let released = HostTestSupport.packageRoot + "/Tests/Fixtures/ABI/released"

    /// The released versions, from the folder names ("1.0", …).
    static var versions: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: released)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// `#define NAME value` of a header.
    static func define(_ name: String, in header: String) throws -> String? {
        let text = try String(contentsOfFile: header, encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") }.map { String($0.split(separator: " ")[2]) }
    }

    @Test("this host's ABI is among the released headers, and each folder holds the header of its version")
    func releasedHeadersAreKept() throws {
        #expect(Self.versions.contains(SkillDefaults.abiVersion),
                "ABI \(SkillDefaults.abiVersion) is not in \(Self.released): copy skill_abi.h and skill_json.h there when releasing it")
        for version in Self.versions {
            let header = Self.released + "/\(version)/skill_abi.h"
            let major = try Self.define("SKILL_ABI_VERSION_MAJOR", in: header)
            let minor = try Self.define("SKILL_ABI_VERSION_MINOR", in: header)
            #expect("\(major ?? "?").\(minor ?? "?")" == version, "\(header) says \(major ?? "?").\(minor ?? "?")")
            #expect(FileManager.default.fileExists(atPath: Self.released + "/\(version)/skill_json.h"))
        }
    }

    @Test("plugins built against each released header run on this host (a C plugin and the C scaffold)",
          arguments: versions)
    func releasedPluginsRunHere(version: String) throws {
        let include = Self.released + "/" + version
        let root = HostTestSupport.temporaryDirectory("abi-released")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let grown = try ABICompatibilityTests.compile("abi_grown_plugin.c", header: include, shared: true)
        try FileManager.default.copyItem(atPath: grown, toPath: root + "/plugins/grown.so")
        let called = try HostTestSupport.skillhost(["call", "grown.sizes", "{}"], root: root)
        #expect(called.status == 0, "\(version): \(called.stderr)")
        #expect(try JSONValue(parsing: called.stdout)["minor"] == .int(Int64(version.split(separator: ".")[1]) ?? -1))

        // The scaffold's C plugin, which uses skill_json.h too, against the released pair.
        let made = try HostTestSupport.run(try HostTestSupport.skillhostBinary(), ["new", "released", "--lang", "c", "--dir", root, "--sdk", HostTestSupport.packageRoot])
        try #require(made.status == 0, "\(made.stderr)")
        let built = try HostTestSupport.run("/usr/bin/cc", ["-std=c99", "-pedantic", "-Wall", "-Werror", "-fPIC", "-shared", "-fvisibility=hidden",
                                                            "-I", include, root + "/released/released.c", "-o", root + "/plugins/released.so"])
        try #require(built.status == 0, "\(built.stderr)")
        let greeted = try HostTestSupport.skillhost(["call", "released.greet", #"{"name": "Ada"}"#], root: root)
        #expect(greeted.status == 0, "\(greeted.stderr)")
        #expect(try JSONValue(parsing: greeted.stdout)["greeting"] == "Hello, Ada!")
    }

    @Test("a host built against each released header runs this package's plugins, C and Swift", arguments: versions)
    func thisPackagesPluginsOnReleasedHosts(version: String) throws {
        let host = try ABICompatibilityTests.compile("abi_host.c", header: Self.released + "/" + version, shared: false)
        let swift = HostTestSupport.packageRoot + "/.build/debug/libClockSkill.so"
        guard FileManager.default.fileExists(atPath: swift) else { throw TestSetupError("build the package first: \(swift)") }
        let c = try ABICompatibilityTests.compile("abi_grown_plugin.c", header: ABICompatibilityTests.header10, shared: true)
        for (plugin, skill) in [(swift, "clock.now"), (c, "grown.sizes")] {
            let result = try HostTestSupport.run(host, [plugin, skill, #"{"timezone":"UTC"}"#])
            #expect(result.status == 0, "\(version) host, \(skill): \(result.stdout) \(result.stderr)")
        }
    }

    @Test("a plugin that needs a newer minor than this host is refused in one line; one that needs this one runs")
    func newerMinorNeeded() throws {
        let needsNewer = try ABICompatibilityTests.compile(
            "abi_grown_plugin.c", header: ABICompatibilityTests.header11, shared: true,
            defines: ["SKILL_TEST_GROWN_HEADER", #"SKILL_TEST_MIN_HOST_ABI="1.1""#])
        let root = HostTestSupport.temporaryDirectory("abi-needs")
        let validated = try HostTestSupport.skillhost(["validate", needsNewer], root: root)
        #expect(validated.status == 9)
        let lines = validated.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(validated.stderr)")
        #expect(lines.first?.contains("/min_host_abi: the plugin needs host ABI 1.1 and this host implements ABI 1.0; update SkillHost to a release with ABI 1.1") == true,
                "\(validated.stderr)")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: needsNewer, toPath: root + "/plugins/grown.so")
        let listed = try HostTestSupport.skillhost(["list"], root: root)
        #expect(listed.stdout.contains("needs host ABI 1.1"), "\(listed.stdout)")
        #expect(try HostTestSupport.skillhost(["call", "grown.sizes", "{}"], root: root).status == 9)

        let needsThis = try ABICompatibilityTests.compile(
            "abi_grown_plugin.c", header: ABICompatibilityTests.header10, shared: true, defines: [#"SKILL_TEST_MIN_HOST_ABI="1.0""#])
        #expect(try HostTestSupport.skillhost(["validate", needsThis], root: root).status == 0)
    }
}
