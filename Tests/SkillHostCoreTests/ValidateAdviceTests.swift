import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `validate` gives the checker's advice for a manifest the scanner child finds invalid too, computed from
/// what the checker could read (it used to return before computing any advice).
@Suite("Advice on invalid manifests")
struct ValidateAdviceTests {
    /// A fixture whose manifest has a bad version and a parameters schema that lets unknown members through.
    static func invalidPluginWithAdvice() throws -> String {
        return try HostTestSupport.fixturePlugin(manifest: #"{"id":"m","name":"M","version":"one","abi_version":"1.0","description":"d","skills":[{"id":"m.x","title":"X","description":"d","parameters":{"type":"object","properties":{"text":{"type":"string"}}},"permission":"read","idempotent":true}]}"#)
    }

    @Test("the library's report of an invalid manifest carries the advice")
    func reportCarriesAdvice() throws {
        let (host, _) = try HostTestSupport.makeHost()
        let path = try Self.invalidPluginWithAdvice()
        let report = try host.validate(path: path)
        #expect(!report.isValid)
        #expect(report.problems.contains { $0.contains("manifest /version") })
        #expect(report.advice.contains { $0.hasPrefix(path) && $0.contains("/skills/0/parameters") && $0.contains("additionalProperties") },
                "\(report.advice)")
    }

    @Test("the scan outcome's advice survives its JSON line")
    func outcomeRoundTrip() throws {
        var outcome = ScanOutcome(status: .invalid, error: "e", problems: ["p"])
        outcome.advice = ["a: add \"additionalProperties\": false"]
        #expect(ScanOutcome(json: outcome.json) == outcome)
        #expect(ScanOutcome(json: ScanOutcome(status: .invalid, error: "e").json)?.advice == [])
    }
}
