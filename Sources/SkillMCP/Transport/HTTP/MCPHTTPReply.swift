import Dispatch
import Synchronization

/// What the server says about one streamed HTTP request (Server-Sent Events), collected for the thread that
/// streams it: notifications in order, then the response line. (A request answered with one JSON body needs
/// no thread: ``MCPHTTPAnswer``.)
final class MCPHTTPReply: Sendable {
    private struct State {
        var notifications: [String] = []
        var response: String?
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    /// The server's `respond` sink.
    var respond: MCPServer.Sink {
        { [self] line in
            state.withLock { $0.response = line }
            signal.signal()
        }
    }

    /// The server's `notify` sink.
    var notify: MCPServer.Sink {
        { [self] line in
            state.withLock { $0.notifications.append(line) }
            signal.signal()
        }
    }

    /// Waits up to `milliseconds` for something new; returns the notifications since the last call and the
    /// response when it came.
    func next(waitingUpTo milliseconds: Int) -> (notifications: [String], response: String?) {
        let taken = take()
        if !taken.notifications.isEmpty || taken.response != nil { return taken }
        _ = signal.wait(timeout: .now() + .milliseconds(milliseconds))
        return take()
    }

    private func take() -> (notifications: [String], response: String?) {
        state.withLock { state in
            defer { state.notifications.removeAll() }
            return (state.notifications, state.response)
        }
    }
}
