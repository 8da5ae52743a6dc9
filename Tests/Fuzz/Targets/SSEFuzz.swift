@testable import SkillAgent

/// The Server-Sent Events decoder: the first byte picks a chunk size, the rest is the stream. Any split
/// into chunks yields the same events as feeding it whole.
func fuzzSSE(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let stream = input.dropFirst()
    let chunkSize = Int(first % 16) + 1
    var whole = ServerSentEventDecoder()
    var expected = whole.feed(stream)
    if let last = whole.finish() { expected.append(last) }
    var chunked = ServerSentEventDecoder()
    var events: [String] = []
    var start = stream.startIndex
    while start < stream.endIndex {
        let end = min(start + chunkSize, stream.endIndex)
        events += chunked.feed(stream[start..<end])
        start = end
    }
    if let last = chunked.finish() { events.append(last) }
    if events != expected { fatalError("chunks of \(chunkSize) give other events than the whole stream") }
}
