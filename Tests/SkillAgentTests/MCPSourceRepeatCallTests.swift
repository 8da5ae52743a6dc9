import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillTestSupport
import Testing

/// One MCP sources' backend calling the same server's tool again and again, as one `skillhost mcp` process
/// does: each call after the first reuses what the first resolved (the server, its listing, the tool), yet a
/// `disable`, a registry override and an `enable` made by another process between two calls apply to the next.
@Suite(.serialized) struct MCPSourceRepeatCallTests {
    @Test(.timeLimit(.minutes(5))) func registryChangesBetweenRepeatedCallsApply() async throws {
        let (host, root) = try MCPSourceChatTests.hostWithTime()
        let sources = MCPSourceBackend(
            base: HostSkillBackend(host: host), host: host,
            launcher: MCPServerLauncher(hostExecutable: try TestPackage.skillhostBinary(), paths: host.paths))
        defer { sources.shutdown() }
        // The listing at hand, so that preparing a call does not wait for the server.
        _ = try await sources.listTools()
        func call() async throws(HostError) -> JSONValue {
            let prepared = try sources.prepare(skillID: "time.get_current_time", arguments: ["timezone": "UTC"])
            return try await sources.run(prepared, options: InvocationOptions(approved: true))
        }
        func skillhost(_ arguments: [String]) throws {
            let result = try HostTestSupport.run(
                try TestPackage.skillhostBinary(),
                arguments + ["--registry", root + "/config/skill_registry.json", "--plugins", root + "/plugins"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        for _ in 0..<3 { #expect(try await call()["timezone"]?.stringValue == "UTC") }

        try skillhost(["disable", "time.get_current_time"])
        let disabled = await #expect(throws: HostError.self) { try await call() }
        #expect(disabled?.kind == .disabled, "\(String(describing: disabled))")

        try skillhost(["enable", "time.get_current_time"])
        #expect(try await call()["timezone"]?.stringValue == "UTC")
        #expect(try sources.prepare(skillID: "time.get_current_time", arguments: ["timezone": "UTC"]).skill.permission == .read)

        // A registry override of the tool's permission: the next prepared call carries it.
        try skillhost(["set", "time.get_current_time", "permission", "dangerous"])
        #expect(try sources.prepare(skillID: "time.get_current_time", arguments: ["timezone": "UTC"]).skill.permission == .dangerous)
    }
}
