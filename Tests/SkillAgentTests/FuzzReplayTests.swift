import Foundation
@testable import SkillAgent
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the SSE and
/// response-decoder targets through the same entry points as Tests/Fuzz/Targets/.
@Suite struct FuzzReplayTests {
    @Test func sseChunkingNeverChangesTheEvents() {
        let inputs = FuzzCorpus.inputs("sse")
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
        let inputs = FuzzCorpus.inputs("openai")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            do { _ = try OpenAIResponseDecoder.reply(from: bytes) } catch { #expect(!"\(error)".isEmpty, "\(name)") }
            _ = OpenAIResponseDecoder.errorSummary(from: bytes)
            _ = try? AnthropicResponseDecoder.reply(from: bytes)
        }
    }
}
