import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The real plugins: the Swift `clock` and `text`, the C `sysinfo` (built by scripts/build-plugins.sh into
/// .build/plugins/) and the third-party fixture package (built by scripts/test.sh with
/// `swift build --package-path Tests/Fixtures/ThirdPartySkill`). Missing files fail with the command to run.
@Suite("Bundled Swift and C plugins and the third-party plugin, loaded and called")
struct BundledPluginTests {
    static let bundled = ["clock", "text", "sysinfo"]
    static let thirdParty = HostTestSupport.packageRoot + "/Tests/Fixtures/ThirdPartySkill/.build/debug/libThirdPartySkill.so"

    func pluginFile(_ name: String) throws -> String {
        let path = HostTestSupport.packageRoot + "/.build/plugins/\(name).so"
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestSetupError("missing \(path): run 'bash scripts/build-plugins.sh' (scripts/test.sh does) before the tests")
        }
        return path
    }

    /// A host with all four plugins installed, in `isolation` mode.
    func host(isolation: String) throws -> SkillHost {
        let (host, root) = try HostTestSupport.makeHost()
        for name in Self.bundled { try HostTestSupport.install(try pluginFile(name), into: root + "/plugins", as: "\(name).so") }
        guard FileManager.default.fileExists(atPath: Self.thirdParty) else {
            throw TestSetupError("missing \(Self.thirdParty): run 'swift build --package-path Tests/Fixtures/ThirdPartySkill' (scripts/test.sh does)")
        }
        try HostTestSupport.install(Self.thirdParty, into: root + "/plugins", as: "units.so")
        try HostTestSupport.write(#"{"defaults": {"isolation": "\#(isolation)"}}"#, to: host.paths.registry)
        return host
    }

    @Test("all four plugins scan as ok with their skills")
    func catalog() throws {
        let catalog = try host(isolation: "inprocess").catalog()
        #expect(catalog.plugins.map(\.id).sorted() == ["clock", "sysinfo", "text", "units"])
        #expect(catalog.plugins.allSatisfy { $0.status == .ok })
        #expect(catalog.skill("clock.now") != nil)
        #expect(catalog.skill("sysinfo.uptime") != nil)
        #expect(catalog.skill("units.convert") != nil)
    }

    @Test("skills of each plugin answer in-process and in a worker", arguments: ["inprocess", "process"])
    func calls(isolation: String) async throws {
        let host = try host(isolation: isolation)
        defer { Task { await host.shutdown() } }
        let now = try await host.invoke(skillID: "clock.now", arguments: ["timezone": "UTC"])
        #expect(now.objectValue?.isEmpty == false)
        let stats = try await host.invoke(skillID: "text.stats", arguments: ["text": "one two two"])
        #expect(stats.serialized().contains("3"))
        let uptime = try await host.invoke(skillID: "sysinfo.uptime", arguments: [:])
        #expect(uptime.objectValue?.isEmpty == false)
        let converted = try await host.invoke(skillID: "units.convert", arguments: ["value": 1, "from": "km", "to": "m"])
        #expect(converted.serialized().contains("1000"))
    }

    @Test("the host validates arguments against the real schemas before calling")
    func schemaEnforced() async throws {
        let host = try host(isolation: "inprocess")
        do {
            _ = try await host.invoke(skillID: "units.convert", arguments: ["value": 1, "from": "parsec", "to": "m"])
            Issue.record("accepted an unknown unit")
        } catch {
            #expect(error.kind == .invalidArguments)
            #expect(error.message.contains("`/from`"))
        }
    }
}
