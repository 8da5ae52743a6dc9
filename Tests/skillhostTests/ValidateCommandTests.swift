import Foundation
import SkillJSON
import Testing

/// `skillhost validate` on an invalid plugin prints its advice too, in text and in `--json`.
@Suite("skillhost validate on an invalid manifest")
struct ValidateCommandTests {
    @Test("an invalid manifest's advice is printed and in --json")
    func invalidManifestShowsAdvice() throws {
        let root = HostTestSupport.temporaryDirectory()
        let plugin = try HostTestSupport.fixturePlugin(manifest: #"{"id":"m","name":"M","version":"one","abi_version":"1.0","description":"d","skills":[{"id":"m.x","title":"X","description":"d","parameters":{"type":"object","properties":{"text":{"type":"string"}}},"permission":"read","idempotent":true}]}"#)
        let text = try HostTestSupport.skillhost(["validate", plugin], root: root)
        #expect(text.status == 9)
        #expect(text.stderr.contains("manifest /version"))
        #expect(text.stderr.contains("validate: advice: \(plugin): manifest /skills/0/parameters"), "\(text.stderr)")
        let json = try HostTestSupport.skillhost(["validate", plugin, "--json"], root: root)
        let report = try JSONValue(parsing: json.stdout)
        #expect(report["valid"] == false)
        let advice = report["advice"]?.arrayValue ?? []
        #expect(advice.contains { $0.stringValue?.contains("additionalProperties") == true }, "\(json.stdout)")
    }
}
