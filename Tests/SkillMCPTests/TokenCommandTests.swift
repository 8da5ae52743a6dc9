import Foundation
import SkillHostCore
import SkillJSON
import SkillMCP
import Testing

/// `skillhost token create|list|revoke` as a user runs it, and what `skillhost mcp --http`'s verifier makes of
/// the registry it leaves: the token printed once as the last line, only its hash stored, scopes and
/// audiences honoured, a revoke effective on the next request, and every wrong use refused in one line.
@Suite struct TokenCommandTests {
    static func token(_ arguments: [String], root: String) throws -> ProcessResult {
        try HostTestSupport.skillhost(["token"] + arguments, root: root)
    }

    @Test func createListAndRevokeReachTheVerifier() throws {
        let root = HostTestSupport.temporaryDirectory("token-cli")
        let created = try Self.token(["create", "laptop", "--scope", "write"], root: root)
        #expect(created.status == 0, "\(created.stderr)")
        let secret = try #require(created.stdout.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("skh_") && secret.count > 30)
        let registryPath = root + "/config/skill_registry.json"
        let registry = try String(contentsOfFile: registryPath, encoding: .utf8)
        #expect(!registry.contains(secret), "only the hash is stored")
        #expect(registry.contains(AccessToken.hash(secret)))
        let reader = try #require(try Self.token(["create", "phone"], root: root).stdout.split(separator: "\n").last.map(String.init))
        let list = try Self.token(["list", "--json"], root: root)
        let listed = try #require(try JSONValue(parsing: list.stdout).arrayValue)
        #expect(Set(listed.compactMap { $0["name"]?.stringValue }) == ["laptop", "phone"])
        #expect(listed.first { $0["name"] == "phone" }?["scope"] == "read", "read is the default scope")
        #expect(!list.stdout.contains(secret))

        let verifier = MCPTokenVerifier(store: RegistryStore(path: registryPath), resource: nil)
        #expect(try verifier.principal(authorization: "Bearer \(secret)").get() == MCPPrincipal(name: "laptop", scope: .write))
        #expect(try verifier.principal(authorization: "bearer \(reader)").get() == MCPPrincipal(name: "phone", scope: .read))
        let revoked = try Self.token(["revoke", "laptop"], root: root)
        #expect(revoked.status == 0 && revoked.stdout.contains("revoked token laptop"))
        guard case .failure(let refusal) = verifier.principal(authorization: "Bearer \(secret)") else {
            Issue.record("a revoked token is refused on the next request")
            return
        }
        #expect(refusal.error == "invalid_token" && refusal.message.contains("revoked"))
        let again = try Self.token(["revoke", "laptop"], root: root)
        #expect(again.status == 3, "no such token")
        #expect(again.stderr.contains("no token laptop") && again.stderr.contains("tokens: phone"), "\(again.stderr)")
    }

    /// `skillhost mcp --http` begins a batch after each read of new requests: those requests share one look at
    /// the registry's file, and a revoke that finished before the next read applies to every request after it.
    @Test func requestsOfOneReadShareOneLookAndARevokeAppliesFromTheNextRead() throws {
        let root = HostTestSupport.temporaryDirectory("token-cli")
        let secret = try #require(try Self.token(["create", "laptop"], root: root).stdout.split(separator: "\n").last.map(String.init))
        let verifier = MCPTokenVerifier(store: RegistryStore(path: root + "/config/skill_registry.json"), resource: nil)
        verifier.beginBatch()
        #expect(try verifier.principal(authorization: "Bearer \(secret)").get().name == "laptop")
        let revoked = try Self.token(["revoke", "laptop"], root: root)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(
            try verifier.principal(authorization: "Bearer \(secret)").get().name == "laptop",
            "a request of the same read is checked against the registry as that read found it")
        verifier.beginBatch()
        guard case .failure(let refusal) = verifier.principal(authorization: "Bearer \(secret)") else {
            Issue.record("a revoke that finished before the read is seen by the requests it brought")
            return
        }
        #expect(refusal.error == "invalid_token")
    }

    @Test func aTokenMadeForAnotherServerIsRefused() throws {
        let root = HostTestSupport.temporaryDirectory("token-cli")
        let made = try Self.token(["create", "ci", "--audience", "https://mcp.example.com/mcp"], root: root)
        let secret = try #require(made.stdout.split(separator: "\n").last.map(String.init))
        let store = RegistryStore(path: root + "/config/skill_registry.json")
        let here = MCPTokenVerifier(store: store, resource: "https://mcp.example.com/mcp")
        #expect(try here.principal(authorization: "Bearer \(secret)").get().name == "ci")
        let elsewhere = MCPTokenVerifier(store: store, resource: "https://other.example.com/mcp")
        guard case .failure(let refusal) = elsewhere.principal(authorization: "Bearer \(secret)") else {
            Issue.record("a token for another audience is refused")
            return
        }
        #expect(refusal.message.contains("was made for https://mcp.example.com/mcp, not for https://other.example.com/mcp"))
    }

    @Test(arguments: [
        (["create"], "token create takes one NAME"),
        (["create", "a b"], "is not 1-64 of A-Z a-z 0-9"),
        (["create", "x", "--scope", "dangerous"], "--scope must be read or write"),
        (["create", "x", "--audience", "mcp.example.com"], "--audience must be the server's endpoint URL"),
        (["list", "x"], "token list takes no NAME"),
        (["frobnicate"], "unknown token action"),
        ([], "expected create, revoke or list"),
    ])
    func wrongUsesAreRefusedWithTheirFix(_ arguments: [String], _ piece: String) throws {
        let root = HostTestSupport.temporaryDirectory("token-cli")
        let result = try Self.token(arguments, root: root)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(piece), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/config/skill_registry.json"), "nothing written")
    }
}
