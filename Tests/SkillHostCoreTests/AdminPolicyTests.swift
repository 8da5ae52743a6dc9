import Foundation
import SkillJSON
import Testing

@testable import SkillHostCore

/// The administrator's policy (docs/policy.md) over real plugin files: what it blocks, forces and allows,
/// that the user's registry cannot undo it, and that a policy that does not parse blocks everything with
/// one line naming the file and line.
@Suite("administrator's policy", .serialized)
struct AdminPolicyTests {
    /// A host over a fresh folder with the fixture plugin (`fixture` 1.2.3: echo, note, …), an instruction
    /// skill `demo`, and the policy `policy` (JSON text) as its policy file.
    static func host(policy: String, registry: String = #"{"version": 1}"#) throws -> (host: SkillHost, root: String) {
        let root = HostTestSupport.temporaryDirectory("policy")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        try HostTestSupport.write("---\nname: demo\ndescription: A demo instruction skill for the policy tests.\n---\nSay hello.\n", to: root + "/skills/demo/SKILL.md")
        try HostTestSupport.write(policy, to: root + "/admin/policy.json")
        try HostTestSupport.write(registry, to: root + "/config/skill_registry.json")
        let paths = HostPaths(
            plugins: root + "/plugins", registry: root + "/config/skill_registry.json", cache: root + "/cache", data: root + "/data",
            skills: root + "/skills", policyFiles: [root + "/nowhere/policy.json", root + "/admin/policy.json"])
        return (SkillHost(paths: paths, helperExecutable: try HostTestSupport.skillhostBinary()), root)
    }

    static func fixture(_ host: SkillHost) throws -> PluginRecord {
        try #require(try host.catalog().plugin("fixture"))
    }

    @Test("a plugin blocked by its SHA-256 is denied with the rule; another digest is not")
    func blockedByHash() async throws {
        let digest = try FileDigest.sha256(ofFile: try HostTestSupport.fixturePlugin())
        let (host, root) = try Self.host(policy: """
            {
              "block": [
                {"name": "bad-build", "sha256": "\(digest)", "reason": "this build leaks files"}
              ]
            }
            """)
        let plugin = try Self.fixture(host)
        #expect(plugin.status == .denied)
        #expect(plugin.error == "plugin fixture 1.2.3 is blocked by the administrator's policy \(root)/admin/policy.json:3 (block[0] \"bad-build\"): this build leaks files; ask your administrator")
        #expect(plugin.skills.allSatisfy { !$0.enabled })
        let failure = await HostTestSupport.failure { () async throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: [:]) }
        #expect(failure?.kind == .denied)
        #expect(failure?.message == plugin.error)

        let (other, _) = try Self.host(policy: #"{"block": [{"sha256": "\#(String(repeating: "0", count: 64))"}]}"#)
        #expect(try Self.fixture(other).status == .ok)
    }

    @Test("version ranges select by semver precedence", arguments: [
        ("<1.2.3", false), ("<=1.2.3", true), (">=1.2.0 <1.3.0", true), (">1.2.3", false), ("1.0.0 || 1.2.3", true),
        ("<1.2.3-rc.1", false), (">1.2.3-rc.1", true), ("=1.2.3", true),
    ])
    func blockedByVersion(range: String, blocked: Bool) throws {
        let (host, _) = try Self.host(policy: #"{"block": [{"plugin": "fixture", "versions": "\#(range)"}]}"#)
        #expect((try Self.fixture(host).status == .denied) == blocked, "\(range)")
    }

    @Test("semver precedence: pre-releases, numeric identifiers, build metadata")
    func semverOrder() {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.10.0", "2.0.0"]
        for (index, version) in ordered.enumerated() {
            for (other, later) in ordered.enumerated() {
                let expected: SemanticVersion.ComparisonResult = index < other ? .ascending : index == other ? .same : .descending
                #expect(SemanticVersion.compare(version, later) == expected, "\(version) vs \(later)")
            }
        }
        #expect(SemanticVersion.compare("1.0.0+build.1", "1.0.0+build.2") == .same)
        #expect(SemanticVersion.compare("1.0", "1.0.0") == nil)
        #expect(PolicyRule.glob("files.*", "files.read") && PolicyRule.glob("*", "x") && PolicyRule.glob("a*c*e", "abcde"))
        #expect(!PolicyRule.glob("files.*", "filesx") && !PolicyRule.glob("a*c", "abd") && !PolicyRule.glob("abc", "abcd"))
    }

    @Test("publishers: a blocked key, and allow_publishers that the registry cannot claim its way around")
    func publishers() throws {
        // A signed install from key A.
        let (host, root) = try Self.host(policy: "{}")
        let key = try MinisignSecretKey.generate()
        try key.write(secretKeyTo: root + "/a.key", publicKeyTo: root + "/a.pub", replacing: false)
        try host.trustPublisher(keyFile: root + "/a.pub", name: "Acme")
        try FileManager.default.removeItem(atPath: root + "/plugins/fixture.so")
        let packed = try host.pack(PackRequest(sources: [try HostTestSupport.fixturePlugin()], output: root + "/f.skillpkg", key: key))
        _ = try host.installPackage(path: packed.path)
        #expect(try Self.fixture(host).signature?.verifiedKeyID == key.publicKey.id)

        try HostTestSupport.write(#"{"block": [{"publisher": "\#(key.publicKey.id)", "reason": "key stolen"}]}"#, to: root + "/admin/policy.json")
        #expect(try Self.fixture(host).error?.contains("(block[0]): key stolen") == true)

        // Only another publisher is allowed: this one is blocked, naming the list and the signer.
        let other = try MinisignSecretKey.generate().publicKey
        try HostTestSupport.write(#"{"allow_publishers": [{"name": "Other", "key": "\#(other.base64)"}]}"#, to: root + "/admin/policy.json")
        let blocked = try Self.fixture(host)
        #expect(blocked.status == .denied)
        #expect(blocked.error == "plugin fixture is blocked by the administrator's policy (\(root)/admin/policy.json:1 (allow_publishers)): only plugins signed by Other (key \(other.id)) may run and it is signed by Acme (key \(key.publicKey.id)), signature verified; ask your administrator")

        // Allowed publisher: runs. An unsigned library beside it, claimed in the registry as that publisher's, does not.
        try HostTestSupport.write(#"{"allow_publishers": [{"name": "Acme", "key": "\#(key.publicKey.base64)"}]}"#, to: root + "/admin/policy.json")
        #expect(try Self.fixture(host).status == .ok)
        let unsigned = try HostTestSupport.fixturePlugin(["PLUGIN_ID=\"loose\""])
        try HostTestSupport.install(unsigned, into: root + "/plugins", as: "loose.so")
        try host.registryStore.update { registry in registry.setPluginValue(.string(key.publicKey.id), forKey: "publisher", plugin: "loose") }
        let loose = try #require(try host.catalog().plugin("loose"))
        #expect(loose.status == .denied)
        #expect(loose.error?.contains("it carries no verified signature") == true, "\(loose.error ?? "")")
    }

    @Test("forced approval and sandbox replace the registry's allow, off and inprocess")
    func forcedApprovalAndSandbox() async throws {
        let (host, root) = try Self.host(
            policy: """
                {
                  "require_approval": [{"skill": "fixture.echo"}],
                  "require_sandbox": [{"plugin": "*"}]
                }
                """,
            registry: #"{"version": 1, "plugins": {"fixture": {"isolation": "inprocess", "sandbox": "off", "skills": {"fixture.echo": {"approval": "allow"}}}}}"#)
        let plugin = try Self.fixture(host)
        #expect(plugin.settings.sandbox == .required && plugin.settings.isolation == .process)
        #expect(plugin.skills.first { $0.id == "fixture.echo" }?.approval == .ask)
        #expect(plugin.policyNotes == [
            "runs sandboxed (sandbox required, in a worker) by the administrator's policy \(root)/admin/policy.json:3 (require_sandbox[0])",
            "skill fixture.echo always needs approval by the administrator's policy \(root)/admin/policy.json:2 (require_approval[0])",
        ])
        let failure = await HostTestSupport.failure { () async throws(HostError) in try await host.invoke(skillID: "fixture.echo", arguments: [:]) }
        #expect(failure?.kind == .denied)
        #expect(failure?.message.contains("needs approval and no one was asked") == true, "\(failure?.message ?? "")")
        await host.shutdown()
    }

    @Test("a blocked skill is off and refused with the rule; enabling it says the policy blocks it")
    func blockedSkill() async throws {
        let (host, root) = try Self.host(policy: #"{"block": [{"skill": "fixture.note", "reason": "no notes here"}]}"#)
        let plugin = try Self.fixture(host)
        #expect(plugin.status == .ok)
        #expect(plugin.skills.first { $0.id == "fixture.note" }?.enabled == false)
        let line = "skill fixture.note is blocked by the administrator's policy \(root)/admin/policy.json:1 (block[0]): no notes here; ask your administrator"
        let failure = await HostTestSupport.failure { () async throws(HostError) in try await host.invoke(skillID: "fixture.note", arguments: ["text": "x"]) }
        #expect(failure?.kind == .denied)
        #expect(failure?.message == line)
        let changes = try host.setEnabled(["fixture.note"], true)
        #expect(changes.first?.note == line)
        #expect(try Self.fixture(host).skills.first { $0.id == "fixture.note" }?.enabled == false, "the registry cannot switch it back on")
        #expect(try host.catalog().enabledSkills.contains { $0.id == "fixture.echo" })
        await host.shutdown()
    }

    @Test("an instruction skill is blocked by id")
    func blockedInstructionSkill() throws {
        let (host, _) = try Self.host(policy: #"{"block": [{"instruction_skill": "dem*"}]}"#)
        let record = try #require(try host.catalog().instruction("demo"))
        #expect(record.status == .denied)
        #expect(record.error?.hasPrefix("instruction skill demo is blocked by the administrator's policy") == true)
        #expect(try host.catalog().enabledInstructions.isEmpty)
    }

    @Test("a policy that cannot be used blocks everything, in one line naming the file and line", arguments: [
        ("{\n  \"block\": [\n    {\"plugin\": \"x\",}\n  ]\n}", ":3:20: ", "expected a member name"),
        ("{\n  \"block\": [\n    {\"plugin\": \"x\", \"version\": \"1\"}\n  ]\n}", ":3:32: ", "unknown member \"version\" in a rule"),
        ("{\"block\": [{\"plugin\": \"x\",\n \"versions\": \"soon\"}]}", ":2:14: ", "\"soon\" in \"soon\" is not a comparator"),
        ("{\"block\": [\n{\"reason\": \"no\"}]}", ":2:1: ", "the rule selects nothing"),
        ("{\"require_sandbox\": [\n\n{\"skill\": \"a.b\"}]}", ":3:1: ", "require_sandbox applies to plugins"),
        ("{\"blocks\": []}", ":1:12: ", "unknown member \"blocks\""),
        ("[]", ":1:1: ", "the policy must be a JSON object"),
    ])
    func failsClosed(text: String, place: String, reason: String) async throws {
        let (host, root) = try Self.host(policy: text)
        let catalog = try host.catalog()
        let plugin = try #require(catalog.plugin("fixture"))
        let error = try #require(plugin.error)
        #expect(plugin.status == .denied)
        #expect(error.hasPrefix("the administrator's policy \(root)/admin/policy.json\(place)\(reason)"), "\(error)")
        #expect(error.hasSuffix("every plugin, skill, instruction skill and MCP source is blocked until the administrator fixes it"))
        #expect(!error.contains("\n"))
        #expect(catalog.instruction("demo")?.status == .denied)
        #expect(catalog.enabledSkills.isEmpty && catalog.enabledInstructions.isEmpty)
        let policy = AdminPolicy.load(files: host.paths.policyFiles)
        #expect(policy.blockingReason(mcpSource: "github") == error, "MCP sources are blocked too")
    }

    @Test("an unreadable policy file fails closed too; a missing one is no policy")
    func unreadable() throws {
        let (host, root) = try Self.host(policy: "{}")
        try FileManager.default.removeItem(atPath: root + "/admin/policy.json")
        try FileManager.default.createDirectory(atPath: root + "/admin/policy.json", withIntermediateDirectories: true)
        #expect(try Self.fixture(host).error?.hasPrefix("the administrator's policy \(root)/admin/policy.json: cannot be read") == true)
        try FileManager.default.removeItem(atPath: root + "/admin/policy.json")
        #expect(try Self.fixture(host).status == .ok)
    }

    @Test("a publisher id may be given as minisign prints it, without leading zeros; 17 digits are an error")
    func publisherIDs() throws {
        let root = HostTestSupport.temporaryDirectory("policy-ids")
        try HostTestSupport.write(#"{"block": [{"publisher": "4e3b756d6f239f2"}]}"#, to: root + "/a.json")
        #expect(AdminPolicy.load(files: [root + "/a.json"]).block.first?.publisher == "04E3B756D6F239F2")
        try HostTestSupport.write(#"{"block": [{"publisher": "04E3B756D6F239F2A"}]}"#, to: root + "/b.json")
        #expect(AdminPolicy.load(files: [root + "/b.json"]).failure?.contains("publisher must be a key id of up to 16 hex digits") == true)
    }

    @Test("the policy files: the system one, and SKILLHOST_POLICY's when it names another")
    func policyFiles() {
        #expect(AdminPolicy.files(environment: [:]) == ["/etc/skillhost/policy.json"])
        #expect(AdminPolicy.files(environment: ["SKILLHOST_POLICY": "/srv/policy.json"]) == ["/etc/skillhost/policy.json", "/srv/policy.json"])
        #expect(AdminPolicy.files(environment: ["SKILLHOST_POLICY": "/etc/skillhost/policy.json"]) == ["/etc/skillhost/policy.json"])
    }
}
