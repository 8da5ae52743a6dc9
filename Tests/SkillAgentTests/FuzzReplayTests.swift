import Foundation
@testable import SkillAgent
import Testing

/// Replays the fuzz regressions (Tests/Fuzz/regressions/) and seeds (Tests/Fuzz/corpus/) of the SSE, HTTP,
/// stream-reader and response-decoder targets through the same entry points as Tests/Fuzz/Targets/.
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

    /// What a response reads as, fed in pieces of `size` until complete and then closed: its heads, body
    /// and ends, or its error (the `http` target's reading).
    static func httpReading(_ bytes: ArraySlice<UInt8>, pieces size: Int, method: String) -> String {
        var parser = HTTPResponseParser(method: method)
        var heads: [Int] = [], body: [UInt8] = [], ends = 0
        var start = bytes.startIndex
        do {
            var events: [HTTPResponseParser.Event] = []
            while start < bytes.endIndex, !parser.isComplete {
                let end = min(start + size, bytes.endIndex)
                events += try parser.feed(bytes[start..<end])
                start = end
            }
            if !parser.isComplete { events += try parser.finish() }
            for event in events {
                switch event {
                case .head(let head): heads.append(head.status)
                case .body(let bytes): body += bytes
                case .end: ends += 1
                }
            }
        } catch {
            return "error \(error)"
        }
        return "heads \(heads), body \(body), ends \(ends)"
    }

    @Test func httpResponsesReadAlikeInPiecesAndWhole() {
        let inputs = FuzzCorpus.inputs("http")
        #expect(inputs.count >= 10)
        for (name, input) in inputs {
            guard let first = input.first else { continue }
            let method = first & 0x80 == 0 ? "POST" : "HEAD"
            let response = input.dropFirst()
            let whole = Self.httpReading(response, pieces: max(response.count, 1), method: method)
            #expect(Self.httpReading(response, pieces: Int(first % 64) + 1, method: method) == whole, "\(name)")
            #expect(Self.httpReading(response, pieces: 1, method: method) == whole, "\(name)")
        }
    }

    @Test func streamedAnswersReadToTheTokensShown() {
        let inputs = FuzzCorpus.inputs("stream")
        #expect(inputs.count >= 10)
        var replies = 0
        for (name, input) in inputs {
            guard let first = input.first else { continue }
            var decoder = ServerSentEventDecoder()
            var payloads = decoder.feed(input.dropFirst())
            if let last = decoder.finish() { payloads.append(last) }
            func read(_ reader: some ModelStreamReader) {
                var reader = reader
                var shown = ""
                for payload in payloads where !reader.isFinished {
                    do { shown += try reader.add(payload) } catch {
                        #expect(!error.message.isEmpty, "\(name)")
                        return
                    }
                }
                #expect(reader.reply.content == shown, "\(name)")
                for call in reader.reply.toolCalls { _ = try? call.parsedArguments() }
                replies += 1
            }
            if first % 2 == 0 { read(OpenAIWireFormat.StreamReader()) } else { read(AnthropicStreamAccumulator()) }
        }
        #expect(replies > 0)
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
