import Foundation
@testable import SkillAgent
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the SSE and
/// response-decoder targets through the same entry points as Tests/Fuzz/Targets/.
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

    @Test func sseChunkingNeverChangesTheEvents() {
        let inputs = Self.inputs("sse")
        #expect(!inputs.isEmpty)
        for (name, input) in inputs {
            guard let first = input.first else { continue }
            let stream = input.dropFirst()
            var whole = ServerSentEventDecoder()
            var expected = whole.feed(stream)
            if let last = whole.finish() { expected.append(last) }
            var chunked = ServerSentEventDecoder()
            var events: [String] = []
            var start = stream.startIndex
            while start < stream.endIndex {
                let end = min(start + Int(first % 16) + 1, stream.endIndex)
                events += chunked.feed(stream[start..<end])
                start = end
            }
            if let last = chunked.finish() { events.append(last) }
            #expect(events == expected, "\(name)")
        }
    }

    @Test func responseBodiesDecodeOrFailWithAMessage() {
        let inputs = Self.inputs("openai")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do { _ = try OpenAIResponseDecoder.reply(from: bytes) } catch { #expect(!"\(error)".isEmpty, "\(name)") }
            _ = OpenAIResponseDecoder.errorSummary(from: bytes)
            _ = try? AnthropicResponseDecoder.reply(from: bytes)
        }
    }
}
