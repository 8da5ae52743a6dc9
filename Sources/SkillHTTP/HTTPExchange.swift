import SkillPosix
import Synchronization

/// One request and the way to answer it. The server hands it to its handler on the loop's thread; the
/// handler answers at once or later, from any thread (an answer from another thread is written on the
/// loop's next turn). Answer once: a whole response with ``respond(_:)``, or a stream
/// (`Transfer-Encoding: chunked`, for Server-Sent Events) with ``startStream(status:fields:)``, ``send(_:)``
/// and ``finish()``. A client that hangs up first is reported to ``onPeerGone(_:)``.
public final class HTTPExchange: @unchecked Sendable {
    /// The request.
    public let request: HTTPServerRequest
    private let connection: HTTPConnection
    private let server: HTTPServer
    private let state: Mutex<Progress>

    private struct Progress {
        var phase = Phase.open
        /// Whether the connection closes after this exchange.
        var closing: Bool
        var gone = false
        var onGone: (@Sendable () -> Void)?
    }

    enum Phase { case open, streaming, done }

    init(request: HTTPServerRequest, connection: HTTPConnection, server: HTTPServer) {
        self.request = request
        self.connection = connection
        self.server = server
        state = Mutex(Progress(closing: !request.keepsAlive))
    }

    /// Whether an answer was given (whole, or a stream finished).
    public var isAnswered: Bool { state.withLock { $0.phase == .done } }

    /// The connection closes after this exchange (e.g. after a refusal that leaves its body unread).
    public func closeAfterwards() { state.withLock { $0.closing = true } }

    /// Sends a whole response. False when the peer is gone (or this exchange was answered already).
    @discardableResult
    public func respond(_ response: HTTPServerResponse) -> Bool {
        let closing: Bool? = state.withLock { state in
            guard state.phase == .open, !state.gone else { return nil }
            state.phase = .done
            return state.closing
        }
        guard let closing else { return false }
        let bytes = response.serialized(closing: closing, headOnly: request.method == "HEAD")
        server.perform { [self, server, connection] in
            server.queue(bytes, on: connection)
            server.finished(self, on: connection, closing: closing)
        }
        return true
    }

    /// Starts a streamed response (chunked). False when the peer is gone.
    @discardableResult
    public func startStream(status: Int = 200, fields: HTTPFields) -> Bool {
        let closing: Bool? = state.withLock { state in
            guard state.phase == .open, !state.gone else { return nil }
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
        guard state.withLock({ $0.phase == .streaming && !$0.gone }) else { return false }
        guard !bytes.isEmpty else { return true }
        var chunk = Array(String(bytes.count, radix: 16).utf8)
        chunk.append(contentsOf: [13, 10])
        chunk.append(contentsOf: bytes)
        chunk.append(contentsOf: [13, 10])
        return write(chunk)
    }

    /// Ends a stream.
    public func finish() {
        let closing: Bool? = state.withLock { state in
            guard state.phase == .streaming else { return nil }
            state.phase = .done
            return state.closing || state.gone
        }
        guard let closing else { return }
        server.perform { [self, server, connection] in
            server.queue(Array("0\r\n\r\n".utf8), on: connection)
            server.finished(self, on: connection, closing: closing)
        }
    }

    /// Whether the client closed the connection (or reset it, or stopped reading and was cut off).
    public var peerHungUp: Bool { state.withLock { $0.gone } }

    /// Runs `body` once when the client hangs up before the exchange is answered (on the loop's thread; at
    /// once when it hung up already). The handler abandons the request's work there.
    public func onPeerGone(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.gone { return state.phase != .done }
            state.onGone = body
            return false
        }
        if now { body() }
    }

    /// The server closed the connection (the peer hung up, a write failed or timed out, the server stops).
    func peerGone() {
        let body = state.withLock { state -> (@Sendable () -> Void)? in
            state.gone = true
            defer { state.onGone = nil }
            return state.phase == .done ? nil : state.onGone
        }
        body?()
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        server.perform { [server, connection] in server.queue(bytes, on: connection) }
        return !peerHungUp
    }
}
