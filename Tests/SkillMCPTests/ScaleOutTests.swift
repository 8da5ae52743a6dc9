import Foundation
import Glibc
import SkillHostCore
import Testing

/// Three `skillhost mcp --http` replicas behind HAProxy (Debian's package) on loopback, sharing the registry,
/// the plugins and the reminders file, each with its own history; a bounded load through the balancer with
/// the Python `mcp` client (Tests/Peers/mcp_scale_out.py) while one replica is killed with SIGKILL: no
/// acknowledged call is lost and idempotent calls are retried (docs/deploy.md).
@Suite(.serialized) struct ScaleOutTests {
    /// A free loopback port (bound and released; the balancer takes it at once).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The HAProxy configuration docs/deploy.md shows (its ```haproxy block), with these ports for its
    /// 9000 (the front end) and 9001–9003 (the replicas).
    static func haproxyConfiguration(port: Int, replicas: [Int]) throws -> String {
        let document = try String(contentsOfFile: MCPTestSupport.packageRoot + "/docs/deploy.md", encoding: .utf8)
        let start = try #require(document.range(of: "```haproxy\n"))
        let end = try #require(document.range(of: "```", range: start.upperBound..<document.endIndex))
        var text = String(document[start.upperBound..<end.lowerBound])
        text = text.replacingOccurrences(of: "127.0.0.1:9000", with: "127.0.0.1:\(port)")
        for (index, replica) in replicas.enumerated() {
            text = text.replacingOccurrences(of: "127.0.0.1:900\(index + 1)", with: "127.0.0.1:\(replica)")
        }
        return text
    }

    @Test(.timeLimit(.minutes(4))) func killingAReplicaMidRunLosesNoAcknowledgedCall() throws {
        let haproxy = "/usr/sbin/haproxy"
        try #require(FileManager.default.isExecutableFile(atPath: haproxy), "install haproxy (scripts/ensure-deps.sh)")
        let python = try PythonClientTests.python()
        var root = try HTTPTestServer.makeRoot()
        // fixture.slow (idempotent) runs 1 s: calls in flight when the replica dies.
        try RegistryStore(path: root.root + "/config/skill_registry.json").update { registry in
            registry.setSkillValue(.int(1), forKey: "timeout", skill: "fixture.slow", plugin: "fixture")
        }
        for plugin in ["ClockSkill", "RemindersSkill"] {
            try FileManager.default.copyItem(atPath: TestPackage.buildDirectory + "/lib\(plugin).so", toPath: root.root + "/plugins/lib\(plugin).so")
        }
        root.write = try HTTPTestServer.token("load", scope: "write", root: root.root)
        // Shared: registry, plugins, the reminders file (under the shared data folder). Per replica: the history.
        let replicas = try (1...3).map { index in
            try HTTPTestServer(root: root, arguments: ["--allow-writes", "--state", root.root + "/state-\(index)"])
        }
        defer { for replica in replicas { replica.stop() } }
        let port = try Self.freePort()
        let configuration = root.root + "/haproxy.cfg"
        try Self.haproxyConfiguration(port: port, replicas: replicas.map(\.port)).write(toFile: configuration, atomically: true, encoding: .utf8)
        let check = try TestProcess.run(haproxy, ["-c", "-f", configuration])
        try #require(check.status == 0, "haproxy -c: \(check.stdout)\(check.stderr)")
        let balancer = Process()
        balancer.executableURL = URL(fileURLWithPath: haproxy)
        balancer.arguments = ["-db", "-f", configuration]
        balancer.standardOutput = FileHandle.nullDevice
        balancer.standardError = FileHandle.nullDevice
        try balancer.run()
        defer {
            balancer.terminate()
            balancer.waitUntilExit()
        }
        // Every replica healthy before the load.
        usleep(1_000_000)
        let script = MCPTestSupport.packageRoot + "/Tests/Peers/mcp_scale_out.py"
        let reminders = root.root + "/xdg-data/skillhost/data/reminders/reminders.ics"
        let result = try PythonClientTests.run(
            python, [script, "http://127.0.0.1:\(port)/mcp", root.write, String(replicas[1].process.processIdentifier), "300", "6", reminders])
        #expect(result.status == 0, "\(result.output)\n--- replica 1 ---\n\(replicas[0].log.suffix(2000))")
        #expect(result.output.contains("all checks passed"))
        #expect(!replicas[1].process.isRunning, "the second replica was killed")
        #expect(replicas[0].stop() == 0 && replicas[2].stop() == 0, "the others stop cleanly")
        print(result.output.split(separator: "\n").first { $0.hasPrefix("summary:") } ?? "")
    }
}
