import Testing
import JSONSchema

/// The official JSON Schema Test Suite, draft 2020-12: every required file must pass completely; the
/// optional files print their counts and must not fall below the level reached.
@Suite struct OfficialSuiteTests {
    static let requiredFiles = TestSuiteData.files(in: "")
    static let optionalFiles = TestSuiteData.files(in: "optional") + TestSuiteData.files(in: "optional/format")

    @Test(arguments: requiredFiles) func requiredFilePasses(_ file: String) throws {
        let tally = try TestSuiteData.run(file)
        print("draft2020-12/\(file): \(tally.passed)/\(tally.total)")
        #expect(tally.total > 0)
        #expect(tally.failures == [], "\(file)")
    }

    @Test func requiredSuiteTotalIs1299() throws {
        var passed = 0
        var total = 0
        for file in Self.requiredFiles {
            let tally = try TestSuiteData.run(file)
            passed += tally.passed
            total += tally.total
        }
        print("draft2020-12 required: \(passed)/\(total)")
        #expect(total == 1299)
        #expect(passed == 1299)
    }

    @Test func optionalFilesStayAtTheirLevel() throws {
        var passed = 0
        var total = 0
        for file in Self.optionalFiles {
            let tally = try TestSuiteData.run(file)
            passed += tally.passed
            total += tally.total
            print("draft2020-12/\(file): \(tally.passed)/\(tally.total)")
            for failure in tally.failures { print("  FAIL \(failure)") }
        }
        print("draft2020-12 optional: \(passed)/\(total)")
        #expect(passed >= Self.optionalFloor)
    }

    /// The Bowtie harness answers the suite like the library does: every group of a file becomes one
    /// `run` request with the remotes as its registry.
    @Test(arguments: ["refRemote.json", "dynamicRef.json", "unevaluatedProperties.json"])
    func bowtieHarnessPassesSuiteFile(_ file: String) throws {
        var harness = BowtieHarness()
        _ = harness.handle(#"{"cmd": "start", "version": 1}"#)
        let registry = JSONValue.object(JSONObject(TestSuiteData.remotes.map { ($0.key, $0.value) }))
        var passed = 0
        var total = 0
        for (sequence, group) in try TestSuiteData.groups(file).enumerated() {
            let request: JSONValue = [
                "cmd": "run", "seq": .int(Int64(sequence)),
                "case": [
                    "description": .string(group.description), "schema": group.schema, "registry": registry,
                    "tests": .array(group.cases.map { ["description": .string($0.description), "instance": $0.data] }),
                ],
            ]
            guard case .respond(let line) = harness.handle(request.serialized()) else {
                Issue.record("no response for \(group.description)")
                continue
            }
            let response = try JSONValue(parsing: line)
            #expect(response["seq"] == .int(Int64(sequence)))
            let results = response["results"]?.arrayValue ?? []
            for (test, result) in zip(group.cases, results) {
                total += 1
                if result["valid"]?.boolValue == test.valid { passed += 1 } else { Issue.record("\(group.description) / \(test.description)") }
            }
        }
        print("bowtie draft2020-12/\(file): \(passed)/\(total)")
        #expect(total > 0 && passed == total)
    }

    /// The optional cases passing when this floor was set; raise it when more pass.
    static let optionalFloor = 926
}
