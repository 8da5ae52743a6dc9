import Foundation
import SkillHostCore
import Testing

/// The whole path through the CLI: a sandboxed call is refused with the capability to grant, `skillhost
/// grant` records it, the next call succeeds, `--revoke` takes it back, and `sandbox: off` is the user's
/// explicit opt-out shown in `list`.
@Suite("Sandbox through the CLI", .enabled(if: KernelSandbox.landlockABI >= 6, "needs Landlock ABI 6"))
struct SandboxCLITests {
    let root = HostTestSupport.temporaryDirectory("skillhost-sandbox-cli")

    /// Runs `skillhost` with HOME and the XDG folders under `root`.
    func skillhost(_ arguments: [String]) throws -> HostTestSupport.ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root + "/home"
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["XDG_CONFIG_HOME"] = root + "/xdg-config"
        environment["XDG_CACHE_HOME"] = root + "/xdg-cache"
        environment["XDG_STATE_HOME"] = root + "/xdg-state"
        for key in ["SKILLHOST_PLUGINS", "SKILLHOST_REGISTRY", "SKILLHOST_CACHE"] { environment[key] = nil }
        let global = ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
        return try HostTestSupport.run(try HostTestSupport.skillhostBinary(), arguments + global, environment: environment)
    }

    @Test("refused with the capability named; granted, it works; revoked, it is refused again; off is explicit")
    func grantFlow() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        _ = try HostTestSupport.install(try HostilePlugins.library("escape"), into: root + "/plugins", as: "escape.so")
        try HostTestSupport.write("secret\n", to: root + "/home/secret.txt")
        let read = ["call", "escape.read", "{\"path\": \"\(root)/home/secret.txt\"}"]

        let refused = try skillhost(read)
        #expect(refused.status == 10, "\(refused.stderr)")
        #expect(refused.stderr.contains("skillhost grant escape home:secret.txt:read"), "\(refused.stderr)")

        let grant = try skillhost(["grant", "escape", "home:secret.txt:read"])
        #expect(grant.status == 0, "\(grant.stderr)")
        let allowed = try skillhost(read)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("\"bytes\": 7") || allowed.stdout.contains("\"bytes\":7"), "\(allowed.stdout)")
        let inspect = try skillhost(["inspect", "escape"])
        #expect(inspect.stdout.contains("granted:     home:secret.txt:read"), "\(inspect.stdout)")

        #expect(try skillhost(["grant", "escape", "home:secret.txt:read", "--revoke"]).status == 0)
        #expect(try skillhost(read).status == 10)
        #expect(try skillhost(["grant", "escape", "network:udp:53"]).status == 2)
        #expect(try skillhost(["grant", "nosuch", "processes"]).status == 3)

        try HostTestSupport.write(#"{"version": 1, "plugins": {"escape": {"sandbox": "off"}}}"#, to: root + "/config/skill_registry.json")
        let list = try skillhost(["list"])
        #expect(list.stdout.contains("sandbox: off"), "\(list.stdout)")
        #expect(try skillhost(read).status == 0)
    }
}
