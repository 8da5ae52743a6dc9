import Glibc
import SkillPosix

/// The steps of one connection on the loop's thread: admitted, ready for reading or writing, a request read
/// and handed over, answered, refused, timed out, closed.
extension HTTPServer {
    /// A new connection: watched (edge-triggered) and started.
    func admit(_ socket: HTTPServerSocket) {
        let state = self.state
        let token = state.nextToken
        state.nextToken &+= 1
        let now = Posix.monotonicNanoseconds()
        var phase = HTTPConnection.Phase.reading
        var deadline = now &+ nanoseconds(limits.idleTimeout)
        if let tls {
            guard socket.beginTLS(tls.context) else {
                log("http: \(socket.peer): cannot set up TLS" + TLSServerContext.lastError())
                return
            }
            phase = .handshake
            deadline = now &+ nanoseconds(limits.headTimeout)
        }
        let connection = HTTPConnection(token: token, socket: socket, limits: limits, phase: phase, deadline: deadline)
        let wanted = Posix.EventPoll.readable | Posix.EventPoll.writable | Posix.EventPoll.readHangUp | Posix.EventPoll.edgeTriggered
        guard events.add(socket.descriptor, events: wanted, token: token) else {
            log("http: \(socket.peer): cannot watch the connection: \(Posix.describe(errno: errno))")
            return
        }
        state.connections[token] = connection
        countOpen(1)
        state.nearest = min(state.nearest, deadline)
        advance(connection)
    }

    /// The socket reported `events`.
    func ready(_ connection: HTTPConnection, events: UInt32) {
        let gone = Posix.EventPoll.hangUp | Posix.EventPoll.error | Posix.EventPoll.readHangUp
        if events & gone != 0, connection.phase == .inFlight {
            // The client hung up while its request is with the handler: the request is abandoned.
            close(connection)
            return
        }
        if events & (Posix.EventPoll.readable | gone) != 0 { connection.mayHaveInput = true }
        if connection.hasOutput { write(connection) }
        if !connection.closed { advance(connection) }
    }

    /// Takes the connection as far as it goes without waiting: the handshake, reading and parsing requests,
    /// handing each to the handler (one at a time, in order), closing.
    func advance(_ connection: HTTPConnection) {
        guard !connection.advancing, !connection.closed else { return }
        connection.advancing = true
        defer { connection.advancing = false }
        while !connection.closed {
            switch connection.phase {
            case .inFlight:
                return
            case .closing:
                if !connection.hasOutput { close(connection) }
                return
            case .handshake:
                switch connection.socket.handshake() {
                case .done:
                    connection.phase = .reading
                    connection.idle = true
                    connection.deadline = Posix.monotonicNanoseconds() &+ nanoseconds(limits.idleTimeout)
                case .wantRead, .wantWrite:
                    return
                case .closed, .failed:
                    log("http: \(connection.socket.peer): TLS handshake failed" + TLSServerContext.lastError())
                    close(connection)
                    return
                }
            case .reading:
                do {
                    if try parseRequest(connection) { continue }
                } catch {
                    refuse(error, on: connection, request: connection.head?.request)
                    continue
                }
                guard connection.mayHaveInput else { return }
                let step = connection.socket.read(into: &state.buffer)
                switch step {
                case .done(let count):
                    connection.parser.append(state.buffer[0..<count])
                    // A short plain read emptied the socket: the next bytes bring an event (edge-triggered).
                    if connection.socket.tls == nil, count < state.buffer.count { connection.mayHaveInput = false }
                    if connection.idle {
                        connection.idle = false
                        connection.deadline = Posix.monotonicNanoseconds() &+ nanoseconds(limits.headTimeout)
                        state.nearest = min(state.nearest, connection.deadline)
                    }
                case .wantRead:
                    connection.mayHaveInput = false
                    return
                case .wantWrite:
                    // TLS wants to write before it reads: the writable event brings it back here.
                    return
                case .closed:
                    if connection.parser.buffered > 0 || connection.head != nil {
                        log("http: \(connection.socket.peer): the connection closed in the middle of a request \(connection.head == nil ? "head" : "body")")
                    }
                    close(connection)
                    return
                case .failed:
                    close(connection)
                    return
                }
            }
        }
    }

    /// Parses what was read: true when a request went to the handler (or the phase changed).
    private func parseRequest(_ connection: HTTPConnection) throws(HTTPRequestError) -> Bool {
        if connection.head == nil {
            guard var request = try connection.parser.head() else { return false }
            request.peer = connection.socket.peer
            let framing = try connection.parser.framing(of: request)
            connection.head = (request, framing)
            connection.idle = false
            connection.deadline = Posix.monotonicNanoseconds() &+ nanoseconds(limits.bodyTimeout)
            state.nearest = min(state.nearest, connection.deadline)
            if request.fields["expect"]?.lowercased() == "100-continue", framing != .length(0) {
                queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), on: connection)
            }
        }
        guard let (head, framing) = connection.head else { return false }
        let body: [UInt8]?
        switch framing {
        case .length(let length): body = connection.parser.body(length: length)
        case .chunked: body = try connection.parser.chunkedBody()
        }
        guard let body else { return false }
        var request = head
        request.body = body
        connection.head = nil
        connection.phase = .inFlight
        connection.exchangeSerial &+= 1
        let exchange = HTTPExchange(request: request, connection: connection, server: self, serial: connection.exchangeSerial)
        if state.requests == 0 { state.beforeRequests?() }
        state.requests += 1
        handler(exchange)
        return true
    }

    /// Queues bytes on the connection and writes what the socket takes.
    func queue(_ bytes: [UInt8], on connection: HTTPConnection) {
        guard !connection.closed else { return }
        let now = Posix.monotonicNanoseconds()
        connection.queue(bytes, writeTimeout: nanoseconds(limits.writeTimeout), now: now)
        if let deadline = connection.writeDeadline { state.nearest = min(state.nearest, deadline) }
        write(connection)
    }

    /// Writes what waits; closes a connection that failed, or that was closing and is done.
    func write(_ connection: HTTPConnection) {
        switch connection.flush() {
        case .done:
            if connection.phase == .closing { close(connection) }
        case .wantRead, .wantWrite:
            break
        case .closed, .failed:
            close(connection)
        }
    }

    /// The exchange on `connection` is answered: the next request (perhaps already read), or the close.
    func finished(_ serial: UInt64, on connection: HTTPConnection, closing: Bool) {
        guard connection.phase == .inFlight, connection.exchangeSerial == serial, !connection.closed else { return }
        if closing {
            connection.phase = .closing
            if !connection.hasOutput { close(connection) }
            return
        }
        connection.phase = .reading
        let now = Posix.monotonicNanoseconds()
        // The next head: idle until its first byte (unless some of it came already), then the head timeout.
        connection.idle = connection.parser.buffered == 0
        connection.deadline = now &+ nanoseconds(connection.idle ? limits.idleTimeout : limits.headTimeout)
        state.nearest = min(state.nearest, connection.deadline)
        advance(connection)
    }

    /// A refusal: its line, then the connection closes.
    func refuse(_ error: HTTPRequestError, on connection: HTTPConnection, request: HTTPServerRequest? = nil) {
        let what = request.map { "\($0.method) \($0.path)" } ?? "a request"
        log("http: \(connection.socket.peer): refused \(what): \(error)")
        var fields = HTTPFields()
        if error.status == 405 { fields.append("Allow", "POST") }
        connection.head = nil
        connection.phase = .closing
        queue(HTTPServerResponse.text(error.status, error.message, fields: fields).serialized(closing: true), on: connection)
    }

    /// Closes the connection; an exchange still open learns that its peer is gone.
    func close(_ connection: HTTPConnection) {
        guard !connection.closed else { return }
        connection.closed = true
        state.connections[connection.token] = nil
        events.remove(connection.socket.descriptor)
        countOpen(-1)
        if connection.phase == .inFlight { connection.exchangePeerGone() }
    }

    /// Times out what is late: a stalled reader, a slow head or body (408), an idle keep-alive connection,
    /// a handshake; and resumes accepting after a shortage of descriptors.
    func sweep() {
        let now = Posix.monotonicNanoseconds()
        var nearest = UInt64.max
        if let resume = state.listenerPausedUntil {
            if now >= resume {
                state.listenerPausedUntil = nil
                events.add(listener, events: Posix.EventPoll.readable, token: Self.listenerToken)
            } else {
                nearest = resume
            }
        }
        for connection in Array(state.connections.values) {
            if let deadline = connection.writeDeadline, now >= deadline {
                // A reader that stopped reading.
                log("http: \(connection.socket.peer): the client did not read the answer within \(limits.writeTimeout); closed the connection")
                close(connection)
                continue
            }
            if connection.phase == .handshake || connection.phase == .reading, now >= connection.deadline {
                switch connection.phase {
                case .handshake:
                    log("http: \(connection.socket.peer): TLS handshake timed out")
                    close(connection)
                case _ where connection.head != nil:
                    refuse(HTTPRequestError(408, "the request body did not arrive whole within \(limits.bodyTimeout); send the whole body at once"),
                           on: connection, request: connection.head?.request)
                case _ where !connection.idle:
                    refuse(HTTPRequestError(408, "the request head did not arrive whole within \(limits.headTimeout); send the whole head at once"), on: connection)
                default:
                    close(connection)
                }
                if connection.closed { continue }
            }
            if let deadline = connection.writeDeadline { nearest = min(nearest, deadline) }
            if connection.phase == .handshake || connection.phase == .reading { nearest = min(nearest, connection.deadline) }
        }
        state.nearest = nearest
    }
}
