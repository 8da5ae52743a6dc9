import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// Trust and isolation through the host facade and the CLI: a trusted plugin whose file changes by one byte
/// is refused with both digests; crashes in a worker leave the host able to call again.
@Suite("Trust and isolation end to end")
struct TrustEndToEndTests {
    /// A host over a fresh private folder with the hostile plugin installed.
    private func makeHost() throws -> (host: SkillHost, root: String, plugin: String) {
        let (root, plugin, paths) = try HostilePlugins.installedRoot(prefix: "skillhost-e2e")
        return (SkillHost(paths: paths, helperExecutable: try HostilePlugins.workerExecutable()), root, plugin)
    }

    /// Changes one byte of the manifest's description ("on purpose" → "on purposE"): still a valid plugin.
    private func changeOneByte(of path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let marker = Data("on purpose".utf8)
        let range = try #require(bytes.range(of: marker))
        bytes[range.upperBound - 1] = UInt8(ascii: "E")
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    private func failure(_ host: SkillHost, _ skill: String) async -> HostError? {
        await HostilePlugins.failure { () async throws(HostError) -> JSONValue in
            try await host.invoke(skillID: skill, arguments: [:])
        }
    }

    @Test("a trusted plugin changed by one byte is refused until trusted again")
    func changedPluginRefused() async throws {
        let (host, _, plugin) = try makeHost()
        let change = try host.trust(pluginID: "hostile")
        #expect(change.sha256 == (try FileDigest.sha256(ofFile: plugin)))
        #expect(try host.registryStore.read().pluginSettings("hostile").sha256 == change.sha256)
        #expect(try await host.invoke(skillID: "hostile.ok", arguments: [:]) == ["ok": true, "echo": [:]])

        try changeOneByte(of: plugin)
        let newDigest = try FileDigest.sha256(ofFile: plugin)
        let listed = try #require(try host.catalog().plugin("hostile"))
        #expect(listed.status == .denied, "list must show what call will do")
        #expect(listed.error?.contains(newDigest) == true && listed.error?.contains("skillhost trust hostile") == true)
        let error = await failure(host, "hostile.ok")
        #expect(error?.kind == .denied)
        #expect(error?.message.contains(change.sha256!) == true && error?.message.contains(newDigest) == true,
                "\(error?.message ?? "no error")")

        let again = try host.trust(pluginID: "hostile")
        #expect(again.previousSHA256 == change.sha256 && again.sha256 == newDigest)
        #expect(try host.catalog().plugin("hostile")?.status == .ok)
        #expect(try await host.invoke(skillID: "hostile.ok", arguments: [:]) == ["ok": true, "echo": [:]])
        await host.shutdown()
    }

    @Test("under the required policy an untrusted plugin is refused; untrust removes the pin")
    func requiredPolicy() async throws {
        let (host, root, _) = try makeHost()
        try FileManager.default.createDirectory(atPath: root + "/config", withIntermediateDirectories: true)
        try Data(#"{"version": 1, "trust": "required"}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/config/skill_registry.json"))
        #expect(try host.catalog().plugin("hostile")?.status == .denied)
        let refused = await failure(host, "hostile.ok")
        #expect(refused?.kind == .denied)
        #expect(refused?.message.contains("skillhost trust hostile") == true, "\(refused?.message ?? "")")
        try host.trust(pluginID: "hostile")
        #expect(try await host.invoke(skillID: "hostile.ok", arguments: [:]) == ["ok": true, "echo": [:]])
        let removed = try host.untrust(pluginID: "hostile")
        #expect(removed.sha256 == nil && removed.previousSHA256 != nil)
        #expect(await failure(host, "hostile.ok")?.kind == .denied)
        await host.shutdown()
    }

    @Test("a plugins folder others can write is refused with the chmod fix")
    func unsafeFolder() async throws {
        let (host, root, _) = try makeHost()
        chmod(root + "/plugins", 0o777)
        let listed = try #require(try host.catalog().plugin("hostile"))
        #expect(listed.status == .denied, "list must show what call will do")
        #expect(listed.error?.contains("chmod go-w \(root)/plugins") == true)
        let error = await failure(host, "hostile.ok")
        #expect(error?.kind == .denied)
        #expect(error?.message.contains("chmod go-w \(root)/plugins") == true, "\(error?.message ?? "")")
        #expect(throws: HostError.self) { try host.trust(pluginID: "hostile") }
        await host.shutdown()
    }

    @Test("calls run in a worker by default; a crash there leaves the host working")
    func crashThroughFacade() async throws {
        let (host, _, _) = try makeHost()
        let pid = try await host.invoke(skillID: "hostile.pid", arguments: [:])
        #expect(pid["pid"]?.intValue != Int64(getpid()), "process isolation is the default")
        let crash = await failure(host, "hostile.segfault")
        #expect(crash?.kind == .pluginCrashed)
        #expect(crash?.message.contains("signal 11 (SIGSEGV, Segmentation fault) in skill hostile.segfault") == true)
        #expect(try await host.invoke(skillID: "hostile.ok", arguments: [:]) == ["ok": true, "echo": [:]])
        await host.shutdown()
    }

    @Test("skillhost trust pins the digest in the registry file")
    func trustCommand() throws {
        let (_, root, plugin) = try makeHost()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try HostilePlugins.workerExecutable())
        process.arguments = [
            "trust", "Hostile", "--json", "--plugins", root + "/plugins", "--registry",
            root + "/config/skill_registry.json", "--cache", root + "/cache",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = try JSONValue(parsing: Array(data))
        let digest = try FileDigest.sha256(ofFile: plugin)
        #expect(printed["plugin"] == "hostile" && printed["sha256"] == .string(digest))
        let registry = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: root + "/config/skill_registry.json"))))
        #expect(registry["plugins"]?["hostile"]?["sha256"] == .string(digest))
    }
}
