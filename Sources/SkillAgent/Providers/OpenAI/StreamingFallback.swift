import Synchronization

/// Remembers, for one provider (one chat session), that its server cannot stream: after the first empty
/// or unfinished stream, or a `400` that blames streaming, every later request asks for a whole answer.
/// The switch is announced once, in one line (llama-cpp-python answers a streamed request with tools
/// with `200` and an empty body — issue 13).
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
