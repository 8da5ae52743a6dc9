import Foundation
import SkillJSON
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the JSON
/// targets through the parser, as scripts/fuzz.sh does: each parses to a value that round-trips, or throws
/// a positioned error.
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

    @Test func jsonInputsParseOrFailWithAPosition() throws {
        let inputs = Self.inputs("json", "json-diff")
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
