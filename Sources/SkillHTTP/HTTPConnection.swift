import Synchronization

/// One connection's state on ``HTTPServer``'s loop thread: where it is in its life (TLS handshake, reading a
/// request, a request with the handler, closing), what was read and not yet parsed, what waits to be
/// written, and the deadlines that bound each phase (``HTTPServerLimits``).
final class HTTPConnection {
    enum Phase {
        /// TLS handshake (until the head timeout).
        case handshake
        /// Reading a request: idle until its first byte, then the head timeout, then the body timeout.
        case reading
        /// A request is with the handler; nothing more is read until it is answered.
        case inFlight
        /// Writing what is left, then closing (after a refusal, a `Connection: close`, a stop).
        case closing
    }

    /// Its token in the server's `epoll`.
    let token: UInt64
    let socket: HTTPServerSocket
    var phase: Phase
    var parser: HTTPRequestParser
    /// A request whose head was read, waiting for its body, and the body's framing.
    var head: (request: HTTPServerRequest, framing: HTTPRequestParser.BodyFraming)?
    /// The serial of the exchange with the handler (while ``Phase/inFlight``, streaming included); the
    /// connection does not hold the exchange itself, so a handler that drops it unanswered is noticed
    /// (``HTTPExchange``'s `deinit`).
    var exchangeSerial: UInt64 = 0
    /// The answer state of the current exchange, shared with it (it may answer from any thread).
    let answer = Mutex(HTTPExchange.Progress())
    /// When the current phase times out (monotonic nanoseconds): idle, head, body or handshake.
    var deadline: UInt64
    /// Whether the idle timeout runs (no byte of the next request yet).
    var idle = true
    /// Bytes waiting to be written, from `outputStart`.
    var output: [UInt8] = []
    var outputStart = 0
    /// When what is waiting must have been written (a stalled reader is cut off then).
    var writeDeadline: UInt64?
    /// The socket may hold unread bytes (its last read was not cut short by `EAGAIN`, or an event came since).
    var mayHaveInput = true
    /// ``HTTPServer/advance(_:)`` is running for it (a handler that answers at once calls back into it).
    var advancing = false
    var closed = false

    init(token: UInt64, socket: HTTPServerSocket, limits: HTTPServerLimits, phase: Phase, deadline: UInt64) {
        self.token = token
        self.socket = socket
        self.phase = phase
        self.deadline = deadline
        parser = HTTPRequestParser(limits: limits)
    }

    /// Whether bytes wait to be written.
    var hasOutput: Bool { outputStart < output.count }

    /// Queues `bytes` for writing.
    func queue(_ bytes: [UInt8], writeTimeout: UInt64, now: UInt64) {
        guard !bytes.isEmpty else { return }
        if !hasOutput {
            output.removeAll(keepingCapacity: true)
            outputStart = 0
            writeDeadline = now &+ writeTimeout
        }
        output.append(contentsOf: bytes)
    }

    /// Writes what the socket takes; `.done` once nothing is left, `.wantRead`/`.wantWrite` when it must wait.
    func flush() -> HTTPServerSocket.Step {
        while hasOutput {
            let step = output.withUnsafeBytes { raw in socket.write(UnsafeRawBufferPointer(rebasing: raw[outputStart...])) }
            guard case .done(let count) = step else { return step }
            outputStart += count
        }
        writeDeadline = nil
        if output.capacity > 1 << 20 {
            output = []
        } else {
            output.removeAll(keepingCapacity: true)
        }
        outputStart = 0
        return .done(0)
    }
}
