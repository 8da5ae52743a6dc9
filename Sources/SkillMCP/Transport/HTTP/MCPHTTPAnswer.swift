import Synchronization

/// One request's JSON answer over HTTP, given once: by the server's response, or by the client hanging up
/// first (whichever comes first ends it; the other finds it ended). Holds the request's `--verbose` note.
final class MCPHTTPAnswer: Sendable {
    private let state: Mutex<MCPHTTPTransport.Note?>

    init(note: MCPHTTPTransport.Note) { state = Mutex(note) }

    /// Ends it with `outcome` and returns its note; nil when it had ended already.
    func end(outcome: String?) -> MCPHTTPTransport.Note? {
        state.withLock { note in
            guard var ended = note else { return nil }
            note = nil
            if let outcome { ended.outcome = outcome }
            return ended
        }
    }
}
