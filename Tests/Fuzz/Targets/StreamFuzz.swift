@testable import SkillAgent

/// The readers of a streamed model answer, on the events a model server sends: the first byte picks the
/// wire format (even: Chat Completions, odd: Anthropic Messages), the rest is the Server-Sent Events stream.
/// Each event's data goes to the format's stream reader as `ModelAPIClient` gives it (until the reader says
/// the stream is finished or throws), then the reply is read and each tool call's arguments parsed, as the agent does. The answer's text must be the tokens the reader
/// returned, in order: that is what `chat` showed while the answer streamed.
func fuzzStream(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let stream = input.dropFirst()
    if first % 2 == 0 {
        readStream(stream, with: OpenAIWireFormat.StreamReader())
    } else {
        readStream(stream, with: AnthropicStreamAccumulator())
    }
}

private func readStream(_ stream: ArraySlice<UInt8>, with reader: some ModelStreamReader) {
    var reader = reader
    var decoder = ServerSentEventDecoder()
    var payloads = decoder.feed(stream)
    if let last = decoder.finish() { payloads.append(last) }
    var shown = ""
    for payload in payloads where !reader.isFinished {
        do throws(ModelProviderError) {
            shown += try reader.add(payload)
        } catch {
            if error.message.isEmpty { fatalError("a stream reader threw an error without a message") }
            return
        }
    }
    _ = reader.unusableReason
    let reply = reader.reply
    if reply.content != shown { fatalError("the reply's text is not the tokens streamed: \(reply.content.count) against \(shown.count) characters") }
    for call in reply.toolCalls { _ = try? call.parsedArguments() }  // what the agent does with each call
}
