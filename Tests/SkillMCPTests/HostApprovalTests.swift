import SkillCalls
import Foundation
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// The approval policy through the real host (``HostMCPBackend``) and the fixture plugin's `note` (write)
/// skill: refused by default, allowed by `--allow-writes`, allowed by the registry's `"approval": "allow"`.
@Suite(.serialized) struct HostApprovalTests {
    static func host(registry: String?) throws -> SkillHost {
        let root = MCPTestSupport.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        let compiled = try PythonClientTests.run("/usr/bin/cc", [
            "-std=c99", "-D_DEFAULT_SOURCE", "-fPIC", "-shared", "-fvisibility=hidden",
            "-I", MCPTestSupport.packageRoot + "/Sources/CSkillABI/include",
            MCPTestSupport.packageRoot + "/Tests/Fixtures/TestPlugins/fixture_plugin.c", "-o", root + "/plugins/fixture.so",
        ])
        try #require(compiled.status == 0, "cc: \(compiled.output)")
        if let registry { try MCPTestSupport.write(registry, to: root + "/config/skill_registry.json") }
        let paths = HostPaths(plugins: root + "/plugins", registry: root + "/config/skill_registry.json",
                              cache: root + "/cache", data: root + "/data")
        let binary = MCPTestSupport.packageRoot + "/.build/debug/skillhost"
        try #require(FileManager.default.isExecutableFile(atPath: binary), "run 'swift build' first")
        return SkillHost(paths: paths, helperExecutable: binary)
    }

    func callNote(_ host: SkillHost, allowWrites: Bool) async throws -> JSONValue {
        let sent = SentLines()
        let configuration = MCPServerConfiguration(
            approval: MCPApprovalPolicy(allowWrites: allowWrites, registryPath: host.paths.registry))
        let server = MCPServer(configuration: configuration, backend: HostSkillBackend(host: host), send: sent.sink)
        MCPTestSupport.handshake(server)
        server.receive(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fixture.note","arguments":{"text":"hello"}}}"#)
        let result = try #require(try await sent.response(1, seconds: 30)["result"])
        await host.shutdown()
        return result
    }

    @Test func writesAreRefusedWithTheRemedyUnlessAllowed() async throws {
        let host = try Self.host(registry: nil)
        let refused = try await callNote(host, allowWrites: false)
        #expect(refused["isError"] == true)
        let text = try #require(refused["content"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(text.contains("'skillhost mcp --allow-writes'") && text.contains(host.paths.registry))
        #expect(!FileManager.default.fileExists(atPath: host.paths.data + "/fixture/note.txt"))
    }

    @Test func allowWritesRunsAWriteSkill() async throws {
        let result = try await callNote(try Self.host(registry: nil), allowWrites: true)
        #expect(result["isError"] == false, "\(result)")
        #expect((result["structuredContent"]?["written"]?.intValue ?? 0) > 0)  // bytes the skill wrote
    }

    @Test func theRegistrysApprovalAllowRunsAWriteSkill() async throws {
        let registry = #"{"version": 1, "plugins": {"fixture": {"skills": {"fixture.note": {"approval": "allow"}}}}}"#
        let result = try await callNote(try Self.host(registry: registry), allowWrites: false)
        #expect(result["isError"] == false, "\(result)")
    }
}
