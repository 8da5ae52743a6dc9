import COpenSSL
import Glibc
import SkillPosix
import Synchronization

/// A small HTTP/1.1 server over POSIX sockets (plain or TLS), one event loop (`epoll`) for every connection:
/// keep-alive, pipelining in order, `Content-Length` and chunked bodies, `Expect: 100-continue`, and the
/// bounds of ``HTTPServerLimits`` (head and body size, head/body/idle/write timeouts, connections at once).
/// Every refusal is a `text/plain` line with its status.
///
/// The loop runs on a thread of its own (``start()``) or on a caller's loop (``service(waitingUpTo:)``, which
/// MCP's call loop runs, so a request is read, its call run and its answer written on one thread). The
/// handler is called on the loop's thread with each request, must not block, and answers through the
/// ``HTTPExchange`` at once or later, from any thread.
public final class HTTPServer: @unchecked Sendable {
    /// Takes one request (on the loop's thread; must not block); answers through the exchange, now or later.
    public typealias Handler = @Sendable (HTTPExchange) -> Void

    /// The limits.
    public let limits: HTTPServerLimits
    let handler: Handler
    let log: @Sendable (String) -> Void
    let tls: TLSServerContext?
    let listener: Int32
    /// The port bound (the one asked for, or the kernel's choice for port 0).
    public let port: UInt16
    let events: Posix.EventPoll
    /// Signalled when work is posted from other threads (``perform(_:)``) or the server stops.
    private let posted = Posix.EventCounter()
    private let inbox = Mutex<[Posted]>([])

    /// Work posted to the loop's thread; it touches only the loop's state, there.
    private struct Posted: @unchecked Sendable {
        let body: () -> Void
    }
    private let open = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let threadDone = Atomic<Bool>(true)
    /// `pthread_self()` of the thread running the loop (0 before it first ran).
    private let loopThread = Atomic<UInt>(0)
    /// The loop's own state (its thread only).
    let state = LoopState()

    static let listenerToken: UInt64 = 0
    static let postedToken: UInt64 = 1
    static let watchedToken: UInt64 = 2

    final class LoopState {
        var connections: [UInt64: HTTPConnection] = [:]
        var nextToken: UInt64 = 16
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        /// The earliest deadline of any connection (a lower bound: a sweep recomputes it).
        var nearest = UInt64.max
        /// Accepting pauses until then after running out of descriptors.
        var listenerPausedUntil: UInt64?
        var requests = 0
        var watchedReady = false
        var beforeRequests: (@Sendable () -> Void)?
    }

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
        do {
            events = try Posix.EventPoll(capacity: 128)
        } catch {
            throw HTTPServerError("cannot listen on \(host):\(port): \(error); raise the limit of open files (ulimit -n)")
        }
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
            let candidate = socket(
                address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                address.pointee.ai_protocol)
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
        guard posted.descriptor >= 0, events.add(listener, events: Posix.EventPoll.readable, token: Self.listenerToken),
            events.add(posted.descriptor, events: Posix.EventPoll.readable, token: Self.postedToken)
        else {
            Glibc.close(descriptor)
            throw HTTPServerError("cannot listen on \(host):\(port): \(Posix.describe(errno: errno)); raise the limit of open files (ulimit -n)")
        }
    }

    deinit {
        Glibc.close(listener)
    }

    /// Runs the loop on a thread of its own (instead of a caller's ``service(waitingUpTo:)``).
    public func start() {
        threadDone.store(false, ordering: .sequentiallyConsistent)
        let started = ServerThread.start(name: "skillhost-http") { [self] in
            while !stopped.load(ordering: .acquiring) { service(waitingUpTo: -1) }
            threadDone.store(true, ordering: .releasing)
        }
        if !started { threadDone.store(true, ordering: .releasing) }
    }

    /// Also ends a ``service(waitingUpTo:)`` wait when `descriptor` becomes readable (a caller's own
    /// wake-up: the caller drains it). Call before the loop runs.
    public func watch(_ descriptor: Int32) {
        events.add(descriptor, events: Posix.EventPoll.readable, token: Self.watchedToken)
    }

    /// Runs `body` on the loop's thread before the first request of each turn of the loop goes to the
    /// handler (MCP begins a call batch there: the requests read in one turn share one look at the host's
    /// files). Call before the loop runs.
    public func beforeRequests(_ body: @escaping @Sendable () -> Void) { state.beforeRequests = body }

    /// What one ``service(waitingUpTo:)`` did.
    public struct Serviced: Sendable {
        /// Requests handed to the handler.
        public var requests: Int
        /// Whether the descriptor given to ``watch(_:)`` is readable.
        public var watchedReady: Bool
    }

    /// Waits up to `milliseconds` (-1: until something happens; 0: not at all) for connections, requests,
    /// answers posted from other threads, a deadline or the watched descriptor, and handles what is ready.
    /// One thread runs the loop, always the same.
    @discardableResult
    public func service(waitingUpTo milliseconds: Int32) -> Serviced {
        if loopThread.load(ordering: .relaxed) == 0 { loopThread.store(UInt(pthread_self()), ordering: .relaxed) }
        let state = self.state
        state.requests = 0
        state.watchedReady = false
        var timeout = milliseconds
        if state.nearest != .max {
            let now = Posix.monotonicNanoseconds()
            let until = state.nearest > now ? Int32(clamping: (state.nearest - now) / 1_000_000 + 1) : 0
            timeout = timeout < 0 ? until : min(timeout, until)
        }
        events.wait(milliseconds: timeout) { event in
            switch event.token {
            case Self.listenerToken: acceptAll()
            case Self.postedToken: runPosted()
            case Self.watchedToken: state.watchedReady = true
            default:
                if let connection = state.connections[event.token] { ready(connection, events: event.events) }
            }
        }
        if state.nearest != .max, Posix.monotonicNanoseconds() >= state.nearest { sweep() }
        if stopping.load(ordering: .relaxed), !stopped.load(ordering: .relaxed) { closeAll() }
        return Serviced(requests: state.requests, watchedReady: state.watchedReady)
    }

    /// Connections open now.
    public var connections: Int { open.load(ordering: .relaxed) }

    /// Stops accepting, closes every open connection (an exchange in flight is told its peer is gone) and,
    /// with ``start()``, waits for the loop's thread to end.
    public func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        if onLoopThread || loopThread.load(ordering: .relaxed) == 0 && threadDone.load(ordering: .acquiring) {
            // On the loop, or no loop ever ran.
            closeAll()
            return
        }
        posted.signal()
        // The loop closes everything on its next turn (at most a few seconds when its driver stopped first).
        var waited = 0
        while !stopped.load(ordering: .acquiring) || !threadDone.load(ordering: .acquiring), waited < 5000 {
            usleep(1000)
            waited += 1
        }
    }

    var onLoopThread: Bool { loopThread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Runs `body` on the loop's thread: now when called there, else on its next turn.
    func perform(_ body: @escaping () -> Void) {
        if onLoopThread {
            body()
            return
        }
        // After a stop every connection is closed: nothing is left to answer on.
        if stopped.load(ordering: .acquiring) { return }
        let first = inbox.withLock { inbox in
            inbox.append(Posted(body: body))
            return inbox.count == 1
        }
        if first { posted.signal() }
    }

    private func runPosted() {
        posted.drain()
        while true {
            let jobs = inbox.withLock { inbox in
                defer { inbox.removeAll() }
                return inbox
            }
            if jobs.isEmpty { return }
            for job in jobs { job.body() }
        }
    }

    private func acceptAll() {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            // Close-on-exec at once: workers and scanners started meanwhile must not inherit it.
            let accepted = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Posix.acceptNonBlocking(listener, address: $0, length: &length)
                }
            }
            guard accepted >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    log("http: out of file descriptors; waiting before the next accept")
                    events.remove(listener)
                    let resume = Posix.monotonicNanoseconds() + 100_000_000
                    state.listenerPausedUntil = resume
                    state.nearest = min(state.nearest, resume)
                default: break
                }
                return
            }
            let peer = Self.describe(storage)
            guard open.load(ordering: .relaxed) < limits.maximumConnections else {
                refuseBusy(accepted, peer: peer)
                continue
            }
            admit(HTTPServerSocket(descriptor: accepted, peer: peer))
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
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        Glibc.close(descriptor)
    }

    private func closeAll() {
        events.remove(listener)
        for connection in Array(state.connections.values) { close(connection) }
        stopped.store(true, ordering: .releasing)
    }

    func countOpen(_ delta: Int) { open.wrappingAdd(delta, ordering: .relaxed) }

    func nanoseconds(_ duration: Duration) -> UInt64 { UInt64(max(0, HTTPServerLimits.milliseconds(duration))) * 1_000_000 }

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

/// A detached POSIX thread running a closure (the server's loop when it has its own; no Foundation).
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
