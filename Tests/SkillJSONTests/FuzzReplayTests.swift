import Foundation
import SkillJSON
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the JSON
/// targets through the parser, as scripts/fuzz.sh does: each parses to a value that round-trips, or throws
/// a positioned error.
@Suite struct FuzzReplayTests {
    @Test func jsonInputsParseOrFailWithAPosition() throws {
        let inputs = FuzzCorpus.inputs("json", "json-diff")
        #expect(inputs.count > 50)
        for (name, bytes) in inputs {
            do {
                let value = try JSONValue(parsing: bytes)
                let text = value.serialized()
                #expect(try JSONValue(parsing: text).serialized() == text, "\(name)")
            } catch {
                #expect(error.line >= 1 && error.column >= 1, "\(name): \(error)")
            }
        }
    }
}
