import SkillPosix

/// One request and the way to answer it, handed to the server's handler on the connection's own thread
/// (the handler may block: every connection has a thread). Answer once: a whole response with
/// ``respond(_:)``, or a stream (`Transfer-Encoding: chunked`, for Server-Sent Events) with
/// ``startStream(status:fields:)``, ``send(_:)`` and ``finish()``.
public final class HTTPExchange {
    /// The request.
    public let request: HTTPServerRequest
    let socket: HTTPServerSocket
    let limits: HTTPServerLimits
    /// Whether the connection must close after this exchange.
    var closing: Bool
    private(set) var state = State.open

    enum State { case open, streaming, done }

    init(request: HTTPServerRequest, socket: HTTPServerSocket, limits: HTTPServerLimits) {
        self.request = request
        self.socket = socket
        self.limits = limits
        closing = !request.keepsAlive
    }

    /// Whether an answer was given.
    public var isAnswered: Bool { state == .done }

    /// The connection closes after this exchange (e.g. after a refusal that leaves its body unread).
    public func closeAfterwards() { closing = true }

    /// Sends a whole response. False when the peer is gone or stopped reading (the connection then closes).
    @discardableResult
    public func respond(_ response: HTTPServerResponse) -> Bool {
        guard state == .open else { return false }
        state = .done
        return write(response.serialized(closing: closing, headOnly: request.method == "HEAD"))
    }

    /// Starts a streamed response (chunked). False when the peer is gone.
    @discardableResult
    public func startStream(status: Int = 200, fields: HTTPFields) -> Bool {
        guard state == .open else { return false }
        state = .streaming
        var head: [UInt8] = []
        HTTPServerResponse.appendHead(status: status, fields: fields, to: &head)
        head.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        if closing { head.append(contentsOf: "Connection: close\r\n".utf8) }
        head.append(contentsOf: [13, 10])
        return write(head)
    }

    /// Sends bytes of a stream as one chunk, at once. False when the peer is gone or stopped reading.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        guard state == .streaming, !bytes.isEmpty else { return state == .streaming }
        var chunk = Array(String(bytes.count, radix: 16).utf8)
        chunk.append(contentsOf: [13, 10])
        chunk.append(contentsOf: bytes)
        chunk.append(contentsOf: [13, 10])
        return write(chunk)
    }

    /// Ends a stream.
    public func finish() {
        guard state == .streaming else { return }
        state = .done
        _ = write(Array("0\r\n\r\n".utf8))
    }

    /// Whether the client closed the connection (or reset it): its request is then cancelled.
    public var peerHungUp: Bool { socket.peerHungUp() }

    private func write(_ bytes: [UInt8]) -> Bool {
        do {
            try socket.write(bytes, until: Posix.monotonicNanoseconds() + UInt64(HTTPServerLimits.milliseconds(limits.writeTimeout)) * 1_000_000)
            return true
        } catch {
            closing = true
            state = .done
            return false
        }
    }
}
