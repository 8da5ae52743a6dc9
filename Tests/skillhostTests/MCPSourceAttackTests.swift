import Foundation
import SkillJSON
import Testing

/// A hostile MCP server (Tests/Peers/mcp_attack_server.py) added with `skillhost add-mcp` tries to read the
/// user's SSH key, connect out and write outside its data folder (issue #35). Run unconfined the same
/// attempts succeed (the attack is real); through skillhost every one is refused, as root and as an
/// unprivileged user; with the user's grants (`--read`, `--network`, `--read-write`) they are allowed.
@Suite(.serialized) struct MCPSourceAttackTests {
    static let script = TestPackage.root + "/Tests/Peers/mcp_attack_server.py"

    /// A world with the attacker's server copied in (so the unprivileged user can run it) and added.
    func world(_ identity: AttackWorld.Identity, grants: (AttackWorld) -> [String] = { _ in [] }) throws -> (AttackWorld, String) {
        let world = try AttackWorld(identity)
        let server = world.root + "/attacker.py"
        try FileManager.default.copyItem(atPath: Self.script, toPath: server)
        chmod(server, 0o755)
        try world.own(server)
        let outside = world.root + "/planted-by-mcp"
        let added = try world.skillhost(
            ["add-mcp", "evil"] + grants(world) + ["--", server, world.home + "/.ssh/id_ed25519", "\(world.tcpPort)", outside])
        #expect(added.status == 0, "\(added.stderr)")
        return (world, outside)
    }

    func attack(_ world: AttackWorld) throws -> JSONValue {
        let result = try world.skillhost(["call", "evil.attack", "{}", "--json"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        return try JSONValue(parsing: Array(result.stdout.utf8))["result"] ?? .null
    }

    @Test("unconfined, the server's attempts succeed: the attack is real")
    func theAttackWorksUnconfined() throws {
        let world = try AttackWorld(.root)
        let outside = world.root + "/planted-directly"
        let run = Process()
        run.executableURL = URL(fileURLWithPath: Self.script)
        run.arguments = [world.home + "/.ssh/id_ed25519", "\(world.tcpPort)", outside]
        let input = Pipe(), output = Pipe()
        run.standardInput = input
        run.standardOutput = output
        try run.run()
        input.fileHandleForWriting.write(Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"attack","arguments":{}}}"#.utf8 + [10]))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        let result = try JSONValue(parsing: Array(text.utf8))["result"]?["structuredContent"]
        #expect(result?["read_ssh_key"] == "allowed")
        #expect(result?["connect_out"] == "allowed")
        #expect(result?["write_outside"] == "allowed")
        #expect(result?["spawn"] == "allowed")
        #expect(result?["fork"] == "allowed")
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test("processes: false — the server starts (its one exec) but can neither start a program nor fork, as root and as a user",
          arguments: AttackWorld.Identity.allCases)
    func withoutProcesses(identity: AttackWorld.Identity) throws {
        guard AttackWorld.available(identity) else { return }
        let (world, _) = try world(identity)
        // By default it may (inside its sandbox): the attempt is real.
        let before = try attack(world)
        #expect(before["spawn"] == "allowed", "\(before)")
        #expect(before["fork"] == "allowed", "\(before)")
        let revoked = try world.skillhost(["grant", "evil", "processes", "--revoke"])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        let registry = try JSONValue(parsing: Array(try String(contentsOfFile: world.root + "/config/skill_registry.json", encoding: .utf8).utf8))
        #expect(registry["mcp_servers"]?["evil"]?["processes"] == false, "\(registry)")
        let after = try attack(world)
        #expect(after["spawn"]?.stringValue?.hasPrefix("refused: PermissionError") == true, "\(after)")
        #expect(after["fork"]?.stringValue?.hasPrefix("refused: PermissionError") == true, "\(after)")
        #expect(after["read_ssh_key"]?.stringValue?.hasPrefix("refused:") == true, "the other layers still hold: \(after)")
        let inspected = try world.skillhost(["inspect", "evil", "--json"])
        #expect((try? JSONValue(parsing: Array(inspected.stdout.utf8)))?["sandbox"]?["processes"] == false, "\(inspected.stdout)")
    }

    @Test("through skillhost every attempt is refused, as root and as a user", arguments: AttackWorld.Identity.allCases)
    func confined(identity: AttackWorld.Identity) throws {
        guard AttackWorld.available(identity) else { return }
        let (world, outside) = try world(identity)
        let result = try attack(world)
        #expect(result["read_ssh_key"]?.stringValue?.hasPrefix("refused: PermissionError") == true, "\(result)")
        #expect(result["connect_out"]?.stringValue?.hasPrefix("refused:") == true, "\(result)")
        #expect(result["write_outside"]?.stringValue?.hasPrefix("refused:") == true, "\(result)")
        #expect(result["secret_seen"] == false, "the host's secrets reached the server")
        #expect(result["home"]?.stringValue?.hasSuffix("/mcp-data/evil") == true, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: outside))
    }

    @Test("with the user's grants the same attempts are allowed", arguments: AttackWorld.Identity.allCases)
    func granted(identity: AttackWorld.Identity) throws {
        guard AttackWorld.available(identity) else { return }
        let (world, outside) = try world(identity) { world in
            ["--read", world.home + "/.ssh", "--network", "\(world.tcpPort)", "--read-write", world.root]
        }
        let result = try attack(world)
        #expect(result["read_ssh_key"] == "allowed", "\(result)")
        #expect(result["connect_out"] == "allowed", "\(result)")
        #expect(result["write_outside"] == "allowed", "\(result)")
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test("a crash fails the call with how the server ended and its last words; isError is a skill failure; a name that is not an id is listed as invalid")
    func crashesAndFailures() throws {
        let (world, _) = try world(.root)
        let crash = try world.skillhost(["call", "evil.boom", "{}", "--yes"])
        #expect(crash.status == 8, "\(crash.stderr)")
        #expect(crash.stderr.contains("MCP server evil ended (exit status 3): the server falls over"), "\(crash.stderr)")
        let failed = try world.skillhost(["call", "evil.fail", "{}", "--yes"])
        #expect(failed.status == 6)
        #expect(failed.stderr.contains("evil.fail failed: it went wrong on purpose"), "\(failed.stderr)")
        let list = try world.skillhost(["list"])
        #expect(list.stdout.contains("evil.attack"), "\(list.stdout)")
        #expect(list.stdout.contains(#"invalid: "bad.name" cannot be a skill id"#), "\(list.stdout)")
        let listed = try JSONValue(parsing: Array(try world.skillhost(["list", "--json"]).stdout.utf8))
        let server = listed["mcp_servers"]?.arrayValue?.first
        let tools = server?["tools"]?.arrayValue ?? []
        #expect(tools.compactMap { $0["id"]?.stringValue } == ["evil.attack", "evil.boom", "evil.fail", "evil.slow", "evil.hang", "evil.change"])
        #expect(tools.compactMap { $0["permission"]?.stringValue } == ["read", "dangerous", "write", "read", "read", "read"])
        #expect(server?["invalid"]?.arrayValue?.first?["name"] == "bad.name")
    }

    @Test("crashes count across runs: after 5 in a row the server is broken in every later run, shown by list, until 'skillhost enable'")
    func brokenAcrossRuns() throws {
        let (world, _) = try world(.root)
        for run in 1...5 {
            let crash = try world.skillhost(["call", "evil.boom", "{}", "--yes"])
            #expect(crash.status == 8, "run \(run): \(crash.stderr)")
        }
        let refused = try world.skillhost(["call", "evil.attack", "{}"])
        #expect(refused.status == 8, "\(refused.stderr)")
        #expect(refused.stderr.contains("MCP server evil is broken after 5 crashes in a row (the last: MCP server evil ended (exit status 3): the server falls over); fix it, then run 'skillhost enable evil'"), "\(refused.stderr)")
        let listed = try JSONValue(parsing: Array(try world.skillhost(["list", "--json"]).stdout.utf8))
        #expect(listed["mcp_servers"]?.arrayValue?.first?["status"] == "broken", "\(listed)")
        #expect(try world.skillhost(["enable", "evil"]).status == 0)
        #expect(try attack(world)["connect_out"]?.stringValue?.hasPrefix("refused:") == true, "enabled again, it runs")
    }

    @Test("rate_limit_per_minute holds for an MCP tool as for a plugin's skill: the same window, message and exit code")
    func rateLimited() throws {
        let (world, _) = try world(.root)
        let path = world.root + "/config/skill_registry.json"
        guard case .object(var registry) = try JSONValue(parsing: Array(try String(contentsOfFile: path, encoding: .utf8).utf8)),
            case .object(var servers)? = registry["mcp_servers"], case .object(var entry)? = servers["evil"]
        else { throw TestFailure("no entry evil in \(path)") }
        entry["tools"] = ["evil.fail": ["rate_limit_per_minute": 2]]
        servers["evil"] = .object(entry)
        registry["mcp_servers"] = .object(servers)
        try TestPackage.write(JSONValue.object(registry).serialized(), to: path)
        for _ in 1...2 { #expect(try world.skillhost(["call", "evil.fail", "{}", "--yes"]).status == 6) }
        let limited = try world.skillhost(["call", "evil.fail", "{}", "--yes"])
        #expect(limited.status == 11, "\(limited.stderr)")
        #expect(limited.stderr.contains("skill evil.fail is limited to 2 calls per minute; retry in"), "\(limited.stderr)")
        entry["tools"] = ["evil.fail": ["rate_limit_per_minute": -1]]
        servers["evil"] = .object(entry)
        registry["mcp_servers"] = .object(servers)
        try TestPackage.write(JSONValue.object(registry).serialized(), to: path)
        let bad = try world.skillhost(["call", "evil.fail", "{}", "--yes"])
        #expect(bad.stderr.contains("/mcp_servers/evil/tools/evil.fail/rate_limit_per_minute must be a whole number ≥ 0 (0 or null = no limit), got -1"), "\(bad.stderr)")
    }

    @Test("trust pins the script and its interpreter; a changed script is refused with both digests; trust required refuses an unpinned server")
    func trustPins() throws {
        let (world, _) = try world(.root)
        let trusted = try world.skillhost(["trust", "evil", "--json"])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let pins = try JSONValue(parsing: Array(trusted.stdout.utf8))
        #expect(pins["sha256"]?.stringValue?.count == 64)
        #expect(pins["interpreter"]?.stringValue?.hasPrefix("/usr/bin/python3") == true, "\(pins)")
        #expect(try world.skillhost(["call", "evil.fail", "{}", "--yes"]).status == 6, "a pinned, unchanged server runs")
        let script = world.root + "/attacker.py"
        try (try String(contentsOfFile: script, encoding: .utf8) + "# changed\n").write(toFile: script, atomically: false, encoding: .utf8)
        let changed = try world.skillhost(["call", "evil.fail", "{}", "--yes"])
        #expect(changed.status == 10, "\(changed.stderr)")
        #expect(changed.stderr.contains("changed since it was trusted (trusted sha256 \(pins["sha256"]?.stringValue ?? "")"), "\(changed.stderr)")
        #expect(try world.skillhost(["untrust", "evil"]).status == 0)
        let registry = world.root + "/config/skill_registry.json"
        var document = try JSONValue(parsing: Array(try String(contentsOfFile: registry, encoding: .utf8).utf8)).objectValue ?? [:]
        document["trust"] = "required"
        try world.registry(JSONValue.object(document).serialized())
        let required = try world.skillhost(["call", "evil.fail", "{}", "--yes"])
        #expect(required.status == 10 && required.stderr.contains("then run 'skillhost trust evil'"), "\(required.stderr)")
    }
}
