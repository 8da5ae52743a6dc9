import Foundation
import SkillHostCore
import SkillJSON
import Testing

/// `list --json` shows each skill's `output_schema` (as `inspect --json` does), `null` when the manifest
/// declares none, and the listing cache serves the same bytes as the build that stored them.
@Suite("list --json: output_schema")
struct ListOutputSchemaTests {
    @Test("each skill has output_schema: the manifest's, or null; cold, storing and cached runs print the same bytes")
    func outputSchemaInList() throws {
        let root = HostTestSupport.temporaryDirectory("list-output-schema")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(
            try HostTestSupport.fixturePlugin(["OUTPUT_SCHEMAS"]), into: root + "/plugins", as: "fixture.so")
        let runs = try (0..<3).map { _ in try HostTestSupport.skillhost(["list", "--json"], root: root) }
        for run in runs { #expect(run.status == 0, "\(run.stderr)") }
        #expect(runs[1].stdout == runs[0].stdout && runs[2].stdout == runs[0].stdout, "the cached listing differs")
        #expect(FileManager.default.fileExists(atPath: root + "/cache/list_output.cache"))

        let document = try JSONValue(parsing: runs[2].stdout)
        let skills = try #require(document["plugins"]?.arrayValue?.first?["skills"]?.arrayValue)
        let echo = try #require(skills.first { $0["id"] == "fixture.echo" })
        #expect(echo["output_schema"]?["type"] == "object")
        #expect(echo["output_schema"]?["properties"]?["echo"] != nil)
        for skill in skills {
            #expect(skill["output_schema"] != nil, "\(skill["id"] ?? .null): no output_schema member")
        }
        let inspected = try JSONValue(parsing: try HostTestSupport.skillhost(["inspect", "fixture.echo", "--json"], root: root).stdout)
        #expect(inspected["output_schema"] == echo["output_schema"], "list and inspect disagree")
    }

    @Test("a skill without one shows null")
    func nullWithoutOutputSchema() throws {
        let skill = SkillDescription(
            id: "clock.now", title: "Now", description: "Now.", parameters: ["type": "object"], permission: .read,
            timeout: 5, idempotent: true, examples: [], pluginID: "clock", pluginPath: "/p/clock.so", enabled: true,
            approval: .allow)
        #expect(skill.summaryJSON["output_schema"] == .null)
        var declared = skill
        declared.manifest.outputSchema = ["type": "object"]
        #expect(declared.summaryJSON["output_schema"] == ["type": "object"])
    }
}
