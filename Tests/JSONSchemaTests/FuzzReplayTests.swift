import Foundation
@testable import JSONSchema
import SkillJSON
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the schema and
/// regex targets through the same entry points as Tests/Fuzz/Targets/.
@Suite struct FuzzReplayTests {
    static func inputs(_ targets: String...) -> [(String, [UInt8])] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { root.deleteLastPathComponent() }
        var found: [(String, [UInt8])] = []
        for folder in ["regressions", "corpus"] {
            for target in targets {
                let directory = root.appendingPathComponent("Fuzz/\(folder)/\(target)")
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                for name in names.sorted() {
                    if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) {
                        found.append(("\(folder)/\(target)/\(name)", Array(data)))
                    }
                }
            }
        }
        return found
    }

    static func split(_ input: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let nul = input.firstIndex(of: 0) else { return (input, []) }
        return (Array(input[..<nul]), Array(input[(nul + 1)...]))
    }

    @Test func isValidAndValidateAgreeOnEveryFuzzInput() {
        let inputs = Self.inputs("schema", "schema-diff")
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
        for (name, bytes) in Self.inputs("regex") {
            let (pattern, subject) = Self.split(bytes)
            guard let regex = try? ECMARegex(String(decoding: pattern, as: UTF8.self)) else { continue }
            let text = String(decoding: subject, as: UTF8.self)
            let fast = regex.search(text), slow = regex.search(text, backtrackingOnly: true)
            if fast != .budgetExceeded && slow != .budgetExceeded { #expect(fast == slow, "\(name)") }
        }
    }
}
