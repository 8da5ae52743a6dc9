import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// ``HTTPTransport`` over POSIX sockets, with OpenSSL for `https`: a small HTTP/1.1 client (one request per
/// connection, `Connection: close`) that streams the response body as it arrives, de-chunked, so
/// server-sent events reach the provider line by line as the server flushes them.
///
/// Why not `URLSession`: on Linux it lives in FoundationNetworking, which pulls libcurl and about 35 shared
/// libraries into every process that links it (about 17 ms of start-up), and `skillhost` workers and
/// scanner children never talk HTTP.
///
/// Proxies come from the environment as curl reads them (``ProxyEnvironment``: `HTTPS_PROXY`, `HTTP_PROXY`,
/// `ALL_PROXY`, `NO_PROXY`, in either case). An `https` request goes through a `CONNECT` tunnel with TLS to
/// the origin inside it (SNI and certificate checks against the origin's name); an `http` request is sent
/// to the proxy with the absolute URL as its target. Credentials in the proxy URL travel only in
/// `Proxy-Authorization`, to the proxy.
///
/// Each request runs its blocking socket work on a thread of its own (never the Swift concurrency pool);
/// cancelling the task or ending the body iteration early shuts the socket down at once. The idle timeout
/// (``HTTPRequest/idleTimeout``) applies to connecting, the TLS handshake, and each wait for data.
public struct SocketHTTPTransport: HTTPTransport {
    /// For tests: trust only the CAs in this PEM file instead of the system's.
    var certificateAuthorityFile: String?
    /// The proxy variables, read from the environment when the transport is made.
    var proxies: ProxyEnvironment

    /// A transport that uses the proxies named by this process's environment.
    public init() {
        proxies = ProxyEnvironment.current()
    }

    /// A transport that uses the proxies named by `environment` (`HTTPS_PROXY`, `NO_PROXY`, …; other names
    /// are ignored) instead of the process's.
    public init(proxyEnvironment environment: [String: String]) {
        proxies = ProxyEnvironment(environment)
    }

    public func send(_ request: HTTPRequest) async throws(ModelProviderError)
        -> (HTTPResponseHead, AsyncThrowingStream<[UInt8], any Error>)
    {
        guard let url = HTTPURL(request.url) else {
            throw ModelProviderError(
                .transport, "'\(OpenAIConfiguration.redacted(request.url))' is not an http(s) URL; pass --base-url like http://localhost:11434/v1")
        }
        let proxy = try proxies.proxy(for: url)
        let message = try HTTPRequestWriter.message(for: request, url: url, proxy: proxy)
        let (body, bodyContinuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let exchange = HTTPExchange(
            url: url, proxy: proxy, method: request.method, message: message, idleTimeout: request.idleTimeout,
            certificateAuthorityFile: certificateAuthorityFile, body: bodyContinuation)
        bodyContinuation.onTermination = { _ in exchange.cancel() }
        let head: Result<HTTPResponseHead, ModelProviderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(head: continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
        return (try head.get(), body)
    }
}

/// Formats the request head and body.
enum HTTPRequestWriter {
    /// The bytes of `request` for `url`: request line, `Host`, `Content-Length`, `Connection: close`, the
    /// caller's header fields (those four and `Proxy-Authorization` are the transport's), an empty line,
    /// the body. Sent to an http `proxy`, the target is the absolute URL and `Proxy-Authorization` carries
    /// the proxy's credentials; an https request through a proxy is written as to the origin (it travels
    /// inside the tunnel, where the proxy's credentials must not go).
    static func message(for request: HTTPRequest, url: HTTPURL, proxy: HTTPProxy? = nil) throws(ModelProviderError) -> [UInt8] {
        let method = request.method.uppercased()
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter }) else {
            throw ModelProviderError(.transport, "'\(request.method)' is not an HTTP method")
        }
        let forwarded = proxy != nil && !url.isSecure
        let target = forwarded ? "http://\(url.hostHeader)\(url.target)" : url.target
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        if forwarded, let authorization = proxy?.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        if !request.body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(request.body.count)\r\n" }
        head += "Connection: close\r\n"
        let reserved: Set<String> = ["host", "content-length", "connection", "transfer-encoding", "proxy-authorization"]
        var hasAgent = false
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // By bytes: "\r\n" is one Character in Swift, equal to neither "\r" nor "\n".
            guard !name.isEmpty, !name.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 <= 32 || $0 == 127 }),
                !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 })
            else {
                throw ModelProviderError(.transport, "the header field '\(name)' has characters HTTP does not allow in a header; remove line breaks")
            }
            if reserved.contains(name.lowercased()) { continue }
            if name.lowercased() == "user-agent" { hasAgent = true }
            head += "\(name): \(value)\r\n"
        }
        if !hasAgent { head += "User-Agent: skillhost\r\n" }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }
}

/// One request in flight: its connection, its thread, and who is told what.
private final class HTTPExchange: @unchecked Sendable {
    private struct State {
        var head: CheckedContinuation<Result<HTTPResponseHead, ModelProviderError>, Never>?
        var connection: HTTPConnection?
        var cancelled = false
    }
    private let url: HTTPURL
    private let proxy: HTTPProxy?
    private let method: String
    private let message: [UInt8]
    private let idleTimeout: Double
    private let certificateAuthorityFile: String?
    private let body: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let state = Mutex(State())

    init(
        url: HTTPURL, proxy: HTTPProxy?, method: String, message: [UInt8], idleTimeout: Double, certificateAuthorityFile: String?,
        body: AsyncThrowingStream<[UInt8], any Error>.Continuation
    ) {
        self.certificateAuthorityFile = certificateAuthorityFile
        self.url = url
        self.proxy = proxy
        self.method = method
        self.message = message
        self.idleTimeout = idleTimeout
        self.body = body
    }

    /// Starts the request on a thread of its own; `head` is resumed exactly once.
    func start(head: CheckedContinuation<Result<HTTPResponseHead, ModelProviderError>, Never>) {
        state.withLock { $0.head = head }
        if !DetachedThread.start({ [self] in run() }) {
            fail(ModelProviderError(.transport, "cannot start a thread for the request to \(url.hostHeader)"))
        }
    }

    /// Stops the request: a waiting read or connect fails at once. Any thread.
    func cancel() {
        let connection = state.withLock { state -> HTTPConnection? in
            state.cancelled = true
            return state.connection
        }
        connection?.cancel()
    }

    private func run() {
        do throws(ModelProviderError) {
            let connection = try HTTPConnection.open(
                url, proxy: proxy, idleTimeout: idleTimeout, certificateAuthorityFile: certificateAuthorityFile
            ) { connection in
                let cancelled = state.withLock { state -> Bool in
                    state.connection = connection
                    return state.cancelled
                }
                if cancelled { connection.cancel() }
            }
            try connection.write(message)
            var parser = HTTPResponseParser(method: method)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)
            defer { buffer.deallocate() }
            while !parser.isComplete {
                let count = try connection.read(into: buffer)
                let events: [HTTPResponseParser.Event]
                do throws(HTTPResponseParser.Malformed) {
                    if count == 0 {
                        events = try parser.finish()
                    } else {
                        events = try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    }
                } catch {
                    throw ModelProviderError(.invalidResponse, "\(url.hostHeader) sent a broken HTTP response: \(error.description)")
                }
                for event in events {
                    switch event {
                    case .head(let head):
                        // Through a forwarding proxy, 407 is the proxy's own answer, never the server's.
                        if let proxy, !url.isSecure, head.status == 407 {
                            throw ProxyRefusal.error(status: 407, reason: head.reason, proxy: proxy, target: url.hostHeader)
                        }
                        resumeHead(.success(head))
                    case .body(let bytes): body.yield(bytes)
                    case .end: break
                    }
                }
            }
            body.finish()
        } catch {
            fail(error)
        }
    }

    private func resumeHead(_ result: Result<HTTPResponseHead, ModelProviderError>) {
        state.withLock { state in
            let continuation = state.head
            state.head = nil
            return continuation
        }?.resume(returning: result)
    }

    private func fail(_ error: ModelProviderError) {
        resumeHead(.failure(error))
        body.finish(throwing: error)
    }
}

/// Starts a detached POSIX thread for blocking work.
enum DetachedThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread; false when no thread could be created.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
