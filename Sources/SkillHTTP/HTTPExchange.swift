import SkillPosix
import Synchronization

/// One request and the way to answer it. The server hands it to its handler on the loop's thread; the
/// handler answers at once or later, from any thread (an answer from another thread is written on the
/// loop's next turn). Answer once: a whole response with ``respond(_:)``, or a stream
/// (`Transfer-Encoding: chunked`, for Server-Sent Events) with ``startStream(status:fields:)``, ``send(_:)``
/// and ``finish()``. A client that hangs up first is reported to ``onPeerGone(_:)``.
///
/// A handler that lets go of its exchange without answering (the last reference dropped) has it answered
/// for it: `500` (or the end of a started stream, then the connection closes), so no connection waits
/// forever for an answer nobody will give.
public final class HTTPExchange: @unchecked Sendable {
    /// The request.
    public let request: HTTPServerRequest
    private let connection: HTTPConnection
    private let server: HTTPServer
    /// Which of the connection's exchanges this is: its answer state lives in the connection
    /// (``HTTPConnection/answer``) and belongs to this exchange while the serials match.
    let serial: UInt64

    /// Where an exchange is in its answer, kept by its connection (one exchange at a time).
    struct Progress {
        var serial: UInt64 = 0
        var phase = Phase.done
        /// Whether the connection closes after this exchange.
        var closing = false
        var gone = false
        var onGone: (@Sendable () -> Void)?
    }

    enum Phase { case open, streaming, done }

    init(request: HTTPServerRequest, connection: HTTPConnection, server: HTTPServer, serial: UInt64) {
        self.request = request
        self.connection = connection
        self.server = server
        self.serial = serial
        let closing = !request.keepsAlive
        // The previous exchange's state is released after the lock: its closures may hold the last reference
        // to that exchange, whose deinit takes this lock.
        let previous = connection.answer.withLock { state in
            defer { state = Progress(serial: serial, phase: .open, closing: closing) }
            return state
        }
        withExtendedLifetime(previous) {}
    }

    deinit {
        // Dropped unanswered: answered here (a stream is ended and its connection closed).
        var dropped: (@Sendable () -> Void)?
        let phase: Phase? = connection.answer.withLock { state in
            guard state.serial == serial, state.phase != .done, !state.gone else { return nil }
            defer { state.phase = .done }
            if state.phase == .streaming { state.closing = true }
            swap(&dropped, &state.onGone)
            return state.phase
        }
        withExtendedLifetime(dropped) {}
        guard let phase else { return }
        let bytes: [UInt8]
        let closing: Bool
        if phase == .streaming {
            bytes = Array("0\r\n\r\n".utf8)
            closing = true
        } else {
            closing = connection.answer.withLock { $0.closing }
            bytes = HTTPServerResponse.text(500, "the server did not answer this request; retry it, or report it").serialized(
                closing: closing, headOnly: request.method == "HEAD")
        }
        server.log("http: \(request.peer): \(request.method) \(request.path) was not answered by its handler; answered \(phase == .streaming ? "by ending its stream" : "500")")
        server.perform { [server, connection, serial] in
            server.queue(bytes, on: connection)
            server.finished(serial, on: connection, closing: closing)
        }
    }

    /// Whether an answer was given (whole, or a stream finished).
    public var isAnswered: Bool { connection.answer.withLock { $0.serial != serial || $0.phase == .done } }

    /// The connection closes after this exchange (e.g. after a refusal that leaves its body unread).
    public func closeAfterwards() { connection.answer.withLock { if $0.serial == serial { $0.closing = true } } }

    /// Sends a whole response. False when the peer is gone (or this exchange was answered already).
    @discardableResult
    public func respond(_ response: HTTPServerResponse) -> Bool {
        var dropped: (@Sendable () -> Void)?
        let closing: Bool? = connection.answer.withLock { state in
            guard state.serial == serial, state.phase == .open, !state.gone else { return nil }
            state.phase = .done
            swap(&dropped, &state.onGone)
            return state.closing
        }
        withExtendedLifetime(dropped) {}  // released outside the lock (it may hold this exchange)
        guard let closing else { return false }
        let bytes = response.serialized(closing: closing, headOnly: request.method == "HEAD")
        if server.onLoopThread {
            server.queue(bytes, on: connection)
            server.finished(serial, on: connection, closing: closing)
        } else {
            server.perform { [server, connection, serial] in
                server.queue(bytes, on: connection)
                server.finished(serial, on: connection, closing: closing)
            }
        }
        return true
    }

    /// Starts a streamed response (chunked). False when the peer is gone.
    @discardableResult
    public func startStream(status: Int = 200, fields: HTTPFields) -> Bool {
        let closing: Bool? = connection.answer.withLock { state in
            guard state.serial == serial, state.phase == .open, !state.gone else { return nil }
            state.phase = .streaming
            return state.closing
        }
        guard let closing else { return false }
        var head: [UInt8] = []
        HTTPServerResponse.appendHead(status: status, fields: fields, to: &head)
        head.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        if closing { head.append(contentsOf: "Connection: close\r\n".utf8) }
        head.append(contentsOf: [13, 10])
        return write(head)
    }

    /// Sends bytes of a stream as one chunk. False when the peer is gone (or stopped reading and was cut off).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        guard connection.answer.withLock({ $0.serial == serial && $0.phase == .streaming && !$0.gone }) else { return false }
        guard !bytes.isEmpty else { return true }
        var chunk = Array(String(bytes.count, radix: 16).utf8)
        chunk.append(contentsOf: [13, 10])
        chunk.append(contentsOf: bytes)
        chunk.append(contentsOf: [13, 10])
        return write(chunk)
    }

    /// Ends a stream.
    public func finish() {
        var dropped: (@Sendable () -> Void)?
        let closing: Bool? = connection.answer.withLock { state in
            guard state.serial == serial, state.phase == .streaming else { return nil }
            state.phase = .done
            swap(&dropped, &state.onGone)
            return state.closing || state.gone
        }
        withExtendedLifetime(dropped) {}  // released outside the lock (it may hold this exchange)
        guard let closing else { return }
        server.perform { [server, connection, serial] in
            server.queue(Array("0\r\n\r\n".utf8), on: connection)
            server.finished(serial, on: connection, closing: closing)
        }
    }

    /// Whether the client closed the connection (or reset it, or stopped reading and was cut off).
    public var peerHungUp: Bool { connection.answer.withLock { $0.serial == serial ? $0.gone : true } }

    /// Runs `body` once when the client hangs up before the exchange is answered (on the loop's thread; at
    /// once when it hung up already). The handler abandons the request's work there.
    public func onPeerGone(_ body: @escaping @Sendable () -> Void) {
        var replaced: (@Sendable () -> Void)? = body
        let now = connection.answer.withLock { state -> Bool in
            guard state.serial == serial else { return false }
            if state.gone { return state.phase != .done }
            swap(&replaced, &state.onGone)
            return false
        }
        withExtendedLifetime(replaced) {}  // released outside the lock
        if now { body() }
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        server.perform { [server, connection] in server.queue(bytes, on: connection) }
        return !peerHungUp
    }
}

extension HTTPConnection {
    /// The server closed the connection while an exchange was open (the peer hung up, a write failed or
    /// timed out, the server stops): the exchange learns its peer is gone.
    func exchangePeerGone() {
        var body: (@Sendable () -> Void)?
        let done = answer.withLock { state -> Bool in
            state.gone = true
            swap(&body, &state.onGone)
            return state.phase == .done
        }
        // Run (or released) outside the lock: it may hold the last reference to the exchange.
        if !done { body?() }
        withExtendedLifetime(body) {}
    }
}
