import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `install` keeps a trusted plugin trusted: the pin set by `skillhost trust` moves to the installed file
/// (it used to stay on the old digest, so every call of the new version was refused as "changed").
@Suite("Install and trust")
struct InstallTrustTests {
    static func pinned(_ host: SkillHost, _ pluginID: String) throws -> String? {
        try host.registryStore.read().pluginSettings(pluginID).sha256
    }

    @Test("installing a new version of a trusted plugin moves its pin to the new file")
    func installRepinsTrustedPlugin() async throws {
        let (host, root) = try HostTestSupport.makeHost()
        let first = try host.install(path: try HostTestSupport.fixturePlugin())
        #expect(first.repinnedSHA256 == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/config/skill_registry.json"),
                "an install alone writes no registry")
        let trusted = try host.trust(pluginID: "fixture")
        let newVersion = try HostTestSupport.fixturePlugin(["PRINT_ON_LOAD"])
        let second = try host.install(path: newVersion)
        let digest = try FileDigest.sha256(ofFile: newVersion)
        #expect(second.replaced)
        #expect(second.repinnedSHA256 == digest)
        #expect(digest != trusted.sha256)
        #expect(try Self.pinned(host, "fixture") == digest)
        let echoed = try await host.invoke(skillID: "fixture.echo", arguments: ["x": 1])
        #expect(echoed["echo"] == ["x": 1])
        await host.shutdown()
    }

    @Test("installing never pins a plugin that was not trusted")
    func installDoesNotPinUntrustedPlugin() throws {
        let (host, root) = try HostTestSupport.makeHost()
        try HostTestSupport.write(#"{"version": 1, "plugins": {"fixture": {"enabled": true}}}"#,
                                  to: HostTestSupport.paths(root: root).registry)
        _ = try host.install(path: try HostTestSupport.fixturePlugin())
        let report = try host.install(path: try HostTestSupport.fixturePlugin(["PRINT_ON_LOAD"]))
        #expect(report.repinnedSHA256 == nil)
        #expect(try Self.pinned(host, "fixture") == nil)
    }
}
