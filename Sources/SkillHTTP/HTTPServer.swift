import COpenSSL
import Glibc
import SkillPosix
import Synchronization

/// A small HTTP/1.1 server over POSIX sockets (plain or TLS), one thread per connection: keep-alive,
/// pipelining in order, `Content-Length` and chunked bodies, `Expect: 100-continue`, and the bounds of
/// ``HTTPServerLimits`` (head and body size, head/body/idle/write timeouts, connections at once). Every
/// refusal is a `text/plain` line with its status. The handler answers each request on the connection's
/// thread; what it serves (MCP's Streamable HTTP, static pages, SSE) is up to it.
public final class HTTPServer: Sendable {
    /// Answers one request (on the connection's thread; may block).
    public typealias Handler = @Sendable (HTTPExchange) -> Void

    /// The limits.
    public let limits: HTTPServerLimits
    private let handler: Handler
    private let log: @Sendable (String) -> Void
    private let tls: TLSServerContext?
    private let listener: Int32
    /// The port bound (the one asked for, or the kernel's choice for port 0).
    public let port: UInt16
    private let wake: (read: Int32, write: Int32)
    private let open = Mutex<Set<Int32>>([])
    private let stopping = Atomic<Bool>(false)
    private let acceptorDone = Mutex<Bool>(false)

    /// Binds `host:port` (a name or address; `0` picks a free port) and listens; ``start()`` accepts.
    /// - Throws: one line: the address cannot be resolved or bound (in use, not local), and what to do.
    public init(
        host: String, port: UInt16, limits: HTTPServerLimits = HTTPServerLimits(), tls: TLSServerContext? = nil,
        log: @escaping @Sendable (String) -> Void = { _ in }, handler: @escaping Handler
    ) throws(HTTPServerError) {
        signal(SIGPIPE, SIG_IGN)
        self.limits = limits
        self.handler = handler
        self.log = log
        self.tls = tls
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw HTTPServerError("cannot listen on \(host):\(port): the host does not resolve (\(String(cString: gai_strerror(resolved)))); pass an address such as 127.0.0.1")
        }
        defer { freeaddrinfo(list) }
        var descriptor: Int32 = -1
        var lastError: Int32 = EADDRNOTAVAIL
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry, descriptor < 0 {
            entry = address.pointee.ai_next
            let candidate = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
            guard candidate >= 0 else {
                lastError = errno
                continue
            }
            var yes: Int32 = 1
            setsockopt(candidate, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            if bind(candidate, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0, listen(candidate, 512) == 0 {
                descriptor = candidate
            } else {
                lastError = errno
                Glibc.close(candidate)
            }
        }
        guard descriptor >= 0 else {
            let hint = lastError == EADDRINUSE ? "another process listens there; pick another port" : "pick an address of this machine"
            throw HTTPServerError("cannot listen on \(host):\(port): \(Posix.describe(errno: lastError)); \(hint)")
        }
        listener = descriptor
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = Self.port(of: storage)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        }
        wake = (ends[0], ends[1])
    }

    deinit {
        Glibc.close(listener)
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    /// Starts accepting connections on a thread of its own.
    public func start() {
        ServerThread.start(name: "skillhost-http-accept") { [self] in acceptLoop() }
    }

    /// Connections open now.
    public var connections: Int { open.withLock { $0.count } }

    /// Stops accepting, closes every open connection and waits for the accepting thread to end.
    public func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
        for descriptor in open.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
        while !acceptorDone.withLock({ $0 }) { usleep(1000) }
    }

    private func acceptLoop() {
        defer { acceptorDone.withLock { $0 = true } }
        var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while !stopping.load(ordering: .relaxed) {
            entries[0].revents = 0
            entries[1].revents = 0
            if poll(&entries, 2, -1) < 0 {
                if errno == EINTR { continue }
                log("http: cannot wait for connections: \(Posix.describe(errno: errno))")
                return
            }
            if entries[1].revents != 0 { return }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard accepted >= 0 else {
                if errno == EMFILE || errno == ENFILE {
                    log("http: out of file descriptors; waiting before the next accept")
                    usleep(100_000)
                }
                continue
            }
            // Close-on-exec at once: workers and scanners started meanwhile must not inherit it.
            _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
            let peer = Self.describe(storage)
            let admitted = open.withLock { open -> Bool in
                guard open.count < limits.maximumConnections else { return false }
                open.insert(accepted)
                return true
            }
            guard admitted else {
                refuseBusy(accepted, peer: peer)
                continue
            }
            let started = ServerThread.start(name: "skillhost-http-conn") { [self] in
                serve(HTTPServerSocket(descriptor: accepted, peer: peer))
                open.withLock { _ = $0.remove(accepted) }
            }
            if !started {
                open.withLock { _ = $0.remove(accepted) }
                refuseBusy(accepted, peer: peer)
            }
        }
    }

    /// Over the connection limit: one line and close, without a thread.
    private func refuseBusy(_ descriptor: Int32, peer: String) {
        log("http: \(peer): refused a connection: \(limits.maximumConnections) connections are open (the limit)")
        if tls == nil {
            var fields = HTTPFields()
            fields.append("Retry-After", "1")
            let bytes = HTTPServerResponse.text(503, "the server has \(limits.maximumConnections) connections open (its limit); retry in a moment", fields: fields)
                .serialized(closing: true)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        Glibc.close(descriptor)
    }

    /// One connection's life: requests in order until it closes, times out or fails.
    private func serve(_ socket: HTTPServerSocket) {
        let now = Posix.monotonicNanoseconds()
        if let tls {
            do {
                try socket.startTLS(tls.context, deadline: now + nanoseconds(limits.headTimeout))
            } catch {
                log("http: \(socket.peer): \(error == .timeout ? "TLS handshake timed out" : "\(error)")")
                return
            }
        }
        var parser = HTTPRequestParser(limits: limits)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !stopping.load(ordering: .relaxed) {
            // The next head: idle until its first byte, then the head timeout.
            var request: HTTPServerRequest?
            var headDeadline: UInt64? = parser.buffered > 0 ? Posix.monotonicNanoseconds() + nanoseconds(limits.headTimeout) : nil
            let idleDeadline = Posix.monotonicNanoseconds() + nanoseconds(limits.idleTimeout)
            do {
                while true {
                    if let head = try parser.head() {
                        request = head
                        break
                    }
                    let count = try socket.read(into: &buffer, until: headDeadline ?? idleDeadline)
                    if count == 0 {
                        if parser.buffered > 0 { log("http: \(socket.peer): the connection closed in the middle of a request head") }
                        return
                    }
                    if headDeadline == nil { headDeadline = Posix.monotonicNanoseconds() + nanoseconds(limits.headTimeout) }
                    parser.append(buffer[0..<count])
                }
            } catch let error as HTTPRequestError {
                refuse(error, on: socket)
                return
            } catch HTTPServerSocket.Failure.timeout {
                if headDeadline != nil {
                    refuse(HTTPRequestError(408, "the request head did not arrive whole within \(limits.headTimeout); send the whole head at once"), on: socket)
                }
                return
            } catch {
                return
            }
            guard var request else { return }
            request.peer = socket.peer
            do {
                let framing = try parser.framing(of: request)
                if request.fields["expect"]?.lowercased() == "100-continue", framing != .length(0) {
                    try socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), until: Posix.monotonicNanoseconds() + nanoseconds(limits.writeTimeout))
                }
                let deadline = Posix.monotonicNanoseconds() + nanoseconds(limits.bodyTimeout)
                while true {
                    let body: [UInt8]?
                    switch framing {
                    case .length(let length): body = parser.body(length: length)
                    case .chunked: body = try parser.chunkedBody()
                    }
                    if let body {
                        request.body = body
                        break
                    }
                    let count = try socket.read(into: &buffer, until: deadline)
                    if count == 0 { return }
                    parser.append(buffer[0..<count])
                }
            } catch let error as HTTPRequestError {
                refuse(error, on: socket, request: request)
                return
            } catch HTTPServerSocket.Failure.timeout {
                refuse(HTTPRequestError(408, "the request body did not arrive whole within \(limits.bodyTimeout); send the whole body at once"), on: socket, request: request)
                return
            } catch {
                return
            }
            let exchange = HTTPExchange(request: request, socket: socket, limits: limits)
            handler(exchange)
            if exchange.state == .open {
                exchange.respond(.text(500, "the server gave no answer to \(request.method) \(request.path)"))
            } else if exchange.state == .streaming {
                exchange.finish()
            }
            if exchange.closing { return }
        }
    }

    private func refuse(_ error: HTTPRequestError, on socket: HTTPServerSocket, request: HTTPServerRequest? = nil) {
        let what = request.map { "\($0.method) \($0.path)" } ?? "a request"
        log("http: \(socket.peer): refused \(what): \(error)")
        var fields = HTTPFields()
        if error.status == 405 { fields.append("Allow", "POST") }
        let response = HTTPServerResponse.text(error.status, error.message, fields: fields)
        try? socket.write(response.serialized(closing: true), until: Posix.monotonicNanoseconds() + nanoseconds(limits.writeTimeout))
    }

    private func nanoseconds(_ duration: Duration) -> UInt64 { UInt64(max(0, HTTPServerLimits.milliseconds(duration))) * 1_000_000 }

    private static func port(of storage: sockaddr_storage) -> UInt16 {
        var storage = storage
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// `address:port` of a peer.
    private static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port = Self.port(of: storage)
        let family = storage.ss_family
        withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            }
        }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == sa_family_t(AF_INET6) ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}

/// A detached POSIX thread running a closure (the server's threads; no Foundation).
enum ServerThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    @discardableResult
    static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 512 << 10)
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        if result != 0 { Unmanaged<Box>.fromOpaque(box).release() }
        return result == 0
    }
}
