import Synchronization

/// Remembers, for one provider (one server, for the rest of the process: `skillhost chat` makes one
/// provider), that its server cannot stream: after the first empty or unfinished stream, an empty answer
/// to a streamed request with tools, or a `400` that blames streaming, every later request asks for a
/// whole answer. The switch is announced once, in one line (llama-cpp-python answers a streamed request
/// with tools with `200` and an empty body — issue 13; LiteLLM's Messages endpoint turns that into one
/// empty text block and `end_turn` — issue 38).
final class StreamingFallback: Sendable {
    private let off = Mutex(false)

    /// Whether requests should still ask for a stream.
    var streams: Bool { !off.withLock { $0 } }

    /// Switches streaming off; returns true the first time only (when the switch should be announced).
    func switchOff() -> Bool {
        off.withLock { off in
            defer { off = true }
            return !off
        }
    }
}
