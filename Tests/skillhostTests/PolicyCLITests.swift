import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// The administrator's policy as users meet it on the command line (`SKILLHOST_POLICY`): `list` and
/// `inspect` say what it decided and which rule, `call` and `install` are refused in one line.
@Suite("policy on the command line", .serialized)
struct PolicyCLITests {
    static func skillhost(_ arguments: [String], root: String, policy: String) throws -> HostTestSupport.ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["SKILLHOST_POLICY"] = policy
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"
        let global = ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
        return try HostTestSupport.run(try HostTestSupport.skillhostBinary(), arguments + global, environment: environment)
    }

    @Test("list, inspect and call name the rule; a package the policy blocks is not installed")
    func listInspectCallInstall() throws {
        let root = HostTestSupport.temporaryDirectory("policy-cli")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        let policy = root + "/policy.json"
        try HostTestSupport.write("""
            {
              "block": [{"name": "no-notes", "skill": "fixture.note", "reason": "notes go elsewhere"}],
              "require_approval": [{"plugin": "fixture"}]
            }
            """, to: policy)
        let listed = try Self.skillhost(["list"], root: root, policy: policy)
        #expect(listed.stdout.contains("  policy: skill fixture.note is blocked by the administrator's policy \(policy):2 (block[0] \"no-notes\"): notes go elsewhere"), "\(listed.stdout)")
        #expect(listed.stdout.contains("  policy: skill fixture.echo always needs approval by the administrator's policy \(policy):3 (require_approval[0])"))
        let json = try JSONValue(parsing: try Self.skillhost(["list", "--json"], root: root, policy: policy).stdout)
        #expect(json["plugins"]?.arrayValue?.first?["policy"]?.arrayValue?.count == 7, "one block and six approvals")
        let inspected = try Self.skillhost(["inspect", "fixture.note"], root: root, policy: policy)
        #expect(inspected.stdout.contains("  policy:      skill fixture.note is blocked by"), "\(inspected.stdout)")
        let called = try Self.skillhost(["call", "fixture.note", #"{"text": "x"}"#], root: root, policy: policy)
        #expect(called.status == 10)
        #expect(called.stderr == "skillhost: call: skill fixture.note is blocked by the administrator's policy \(policy):2 (block[0] \"no-notes\"): notes go elsewhere; ask your administrator\n")
        let asked = try Self.skillhost(["call", "fixture.echo", "{}"], root: root, policy: policy)
        #expect(asked.status == 10, "echo is read-only, but the policy makes it need approval")
        #expect(try Self.skillhost(["call", "fixture.echo", "{}", "--yes"], root: root, policy: policy).status == 0)

        // A package of a version the policy blocks is refused before anything is written.
        try HostTestSupport.write(#"{"block": [{"plugin": "fixture", "versions": ">=1.0.0 <2.0.0", "reason": "use 2.x"}]}"#, to: policy)
        try FileManager.default.removeItem(atPath: root + "/plugins/fixture.so")
        let package = root + "/fixture.skillpkg"
        #expect(try Self.skillhost(["pack", try HostTestSupport.fixturePlugin(), "--unsigned", "--output", package], root: root, policy: policy).status == 0)
        let refused = try Self.skillhost(["install", package, "--allow-unsigned"], root: root, policy: policy)
        #expect(refused.status == 10)
        #expect(refused.stderr.contains("fixture.skillpkg: not installed: plugin fixture 1.2.3 is blocked by the administrator's policy \(policy):1 (block[0]): use 2.x"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/plugins").filter { $0.hasSuffix(".so") }.isEmpty)
    }

    @Test("a policy with a syntax error refuses every call in one line naming file and line")
    func syntaxError() throws {
        let root = HostTestSupport.temporaryDirectory("policy-cli")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        let policy = root + "/policy.json"
        try HostTestSupport.write("{\n  \"block\": [\n    {\"plugin\": \"fixture\"\n  ]\n}\n", to: policy)
        let called = try Self.skillhost(["call", "fixture.echo", "{}"], root: root, policy: policy)
        #expect(called.status == 10)
        let lines = called.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("skillhost: call: the administrator's policy \(policy):4:3: ") == true, "\(called.stderr)")
        let listed = try Self.skillhost(["list"], root: root, policy: policy)
        #expect(listed.stdout.split(separator: "\n").contains { $0.hasPrefix("fixture ") && $0.contains(" denied ") }, "\(listed.stdout)")
    }
}
