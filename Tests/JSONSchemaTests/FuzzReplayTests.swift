import Foundation
@testable import JSONSchema
import SkillJSON
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the schema and
/// regex targets through the same entry points as Tests/Fuzz/Targets/.
@Suite struct FuzzReplayTests {
    static func split(_ input: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let nul = input.firstIndex(of: 0) else { return (input, []) }
        return (Array(input[..<nul]), Array(input[(nul + 1)...]))
    }

    @Test func isValidAndValidateAgreeOnEveryFuzzInput() {
        let inputs = FuzzCorpus.inputs("schema", "schema-diff")
        #expect(inputs.count > 50)
        var compiled = 0
        for (name, bytes) in inputs {
            let (schemaBytes, instanceBytes) = Self.split(bytes)
            guard let document = try? JSONValue(parsing: schemaBytes), let schema = try? Schema(compiling: document)
            else { continue }
            compiled += 1
            let instance = (try? JSONValue(parsing: instanceBytes)) ?? .null
            #expect(schema.isValid(instance) == schema.validate(instance).isEmpty, "\(name)")
        }
        #expect(compiled > 50)
    }

    @Test func regexEnginesAgreeOnEveryFuzzInput() {
        for (name, bytes) in FuzzCorpus.inputs("regex") {
            let (pattern, subject) = Self.split(bytes)
            guard let regex = try? ECMARegex(String(decoding: pattern, as: UTF8.self)) else { continue }
            let text = String(decoding: subject, as: UTF8.self)
            let fast = regex.search(text), slow = regex.search(text, backtrackingOnly: true)
            if fast != .budgetExceeded && slow != .budgetExceeded { #expect(fast == slow, "\(name)") }
        }
    }
}
