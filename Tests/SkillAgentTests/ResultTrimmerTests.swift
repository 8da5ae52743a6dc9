import SkillJSON
import Testing

@testable import SkillAgent

@Suite struct ResultTrimmerTests {
    @Test func smallResultsPassUnchanged() {
        let result: JSONValue = ["time": "10:00", "zone": "UTC"]
        #expect(ResultTrimmer(limit: 1000).trimmedText(result) == result.serialized())
    }

    @Test func largeResultsFitAndSayTheyWereTrimmed() throws {
        let items: [JSONValue] = (0..<500).map { ["name": .string("file\($0).txt"), "size": .int(Int64($0))] }
        let result: JSONValue = ["path": "/home/user", "count": 500, "entries": .array(items), "note": .string(String(repeating: "n", count: 5000))]
        let text = ResultTrimmer(limit: 1000).trimmedText(result)
        #expect(text.count <= 1000)
        let trimmed = try JSONValue(parsing: text)
        #expect(trimmed["_trimmed"]?.stringValue?.contains("trimmed") == true)
        // Essential top-level scalar fields survive.
        #expect(trimmed["path"] == "/home/user")
        #expect(trimmed["count"] == 500)
        #expect((trimmed["entries"]?.arrayValue?.count ?? 0) < 500)
    }

    @Test func tinyLimitStillGivesValidJSON() throws {
        let result: JSONValue = .array((0..<1000).map { .int($0) })
        let text = ResultTrimmer(limit: 200).trimmedText(result)
        #expect(text.count <= 200)
        #expect(try JSONValue(parsing: text)["_trimmed"] != nil)
    }
}
