import COpenSSL
import SkillHTTP
import SkillPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection, optionally wrapped in TLS (OpenSSL), with blocking-style `write`/`read` that wait
/// with `poll` up to an idle timeout. Used by one thread at a time; ``cancel()`` may be called from any
/// thread and makes the waiting call fail at once.
final class HTTPConnection: @unchecked Sendable {
    private let socket: Int32
    private var tls: OpaquePointer?
    private let idleTimeout: Double
    /// For error messages: `host:port`.
    let endpoint: String
    private let cancelled = Atomic<Bool>(false)

    private init(socket: Int32, idleTimeout: Double, endpoint: String) {
        self.socket = socket
        self.idleTimeout = idleTimeout
        self.endpoint = endpoint
    }

    deinit {
        if let tls { SSL_free(tls) }
        close(socket)
    }

    /// Connects to `url`'s host and port (every address the name resolves to, in order), or to `proxy`'s
    /// when one is given, and, for `https`, completes a verified TLS handshake with the origin (system CA
    /// store or `SSL_CERT_FILE`; the certificate must name `url`'s host), through a `CONNECT` tunnel when
    /// there is a proxy. `register` receives the connection as soon as the socket exists, so a
    /// cancellation can reach it while it connects.
    /// - Parameter certificateAuthorityFile: trust only the CAs in this PEM file instead of the system's.
    static func open(
        _ url: HTTPURL, proxy: HTTPProxy? = nil, idleTimeout: Double, certificateAuthorityFile: String? = nil,
        register: (HTTPConnection) -> Void
    ) throws(ModelProviderError) -> HTTPConnection {
        let connection: HTTPConnection
        if let proxy {
            connection = try connect(
                host: proxy.host, port: proxy.port, idleTimeout: idleTimeout,
                endpoint: "\(url.hostHeader) through \(proxy.named)", register: register
            ) { reason in
                "cannot reach \(proxy.named) (\(reason)); check \(proxy.variable), or list \(url.host) in NO_PROXY to connect directly"
            }
            if url.isSecure { try connection.tunnel(to: url, through: proxy) }
        } else {
            connection = try connect(
                host: url.host, port: url.port, idleTimeout: idleTimeout, endpoint: url.hostHeader, register: register
            ) { reason in
                "cannot reach \(url.hostHeader) (\(reason)); is the server running and the --base-url right?"
            }
        }
        if url.isSecure { try connection.startTLS(host: url.host, certificateAuthorityFile: certificateAuthorityFile) }
        return connection
    }

    /// A TCP connection to `host` and `port`; `unreachable` words the error from its reason.
    private static func connect(
        host: String, port: UInt16, idleTimeout: Double, endpoint: String, register: (HTTPConnection) -> Void,
        unreachable: (String) -> String
    ) throws(ModelProviderError) -> HTTPConnection {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            let reason = resolved == 0 ? "no address" : String(cString: gai_strerror(resolved))
            throw ModelProviderError(.transport, unreachable("cannot resolve the host name: \(reason)"))
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = Glibc.socket(
                address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                lastError = errno
                continue
            }
            let connection = HTTPConnection(socket: descriptor, idleTimeout: idleTimeout, endpoint: endpoint)
            register(connection)
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else {
                    lastError = errno
                    continue
                }
                try connection.wait(for: Int16(POLLOUT), what: "connect")
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
                if connection.cancelled.load(ordering: .relaxed) { throw connection.cancellation() }
                guard failure == 0 else {
                    lastError = failure
                    continue
                }
            }
            var yes: Int32 = 1
            let noDelay: Int32 = 1  // TCP_NODELAY (netinet/tcp.h is not in Glibc's Swift module): requests go out at once
            setsockopt(descriptor, Int32(IPPROTO_TCP), noDelay, &yes, socklen_t(MemoryLayout<Int32>.size))
            return connection
        }
        throw ModelProviderError(.transport, unreachable(Posix.describe(errno: lastError)))
    }

    /// Makes the current and every later wait fail with `cancelled`. Any thread.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(ModelProviderError) {
        var offset = 0
        while offset < bytes.count {
            let count: Int = bytes.withUnsafeBytes { raw in
                let start = raw.baseAddress! + offset
                if let tls { return Int(SSL_write(tls, start, Int32(clamping: raw.count - offset))) }
                return Glibc.send(socket, start, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                offset += count
                continue
            }
            try settle(result: count, what: "send the request")
        }
    }

    /// Reads what is available into `buffer` (waiting up to the idle timeout); 0 means the peer closed.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ModelProviderError) -> Int {
        while true {
            let count: Int
            if let tls {
                count = Int(SSL_read(tls, buffer.baseAddress, Int32(clamping: buffer.count)))
                if count <= 0, SSL_get_error(tls, Int32(count)) == SSL_ERROR_ZERO_RETURN { return 0 }
            } else {
                count = Glibc.recv(socket, buffer.baseAddress, buffer.count, 0)
                if count == 0 { return 0 }
            }
            if count > 0 { return count }
            if cancelled.load(ordering: .relaxed) { throw cancellation() }
            if tls == nil, count == 0 { return 0 }
            if try settleRead(result: count) { return 0 }
        }
    }

    // MARK: - Waiting and errors

    /// Handles a failed or partial TLS/plain write: waits when the socket would block, throws otherwise.
    private func settle(result: Int, what: String) throws(ModelProviderError) {
        if cancelled.load(ordering: .relaxed) { throw cancellation() }
        if let tls {
            switch SSL_get_error(tls, Int32(result)) {
            case SSL_ERROR_WANT_READ: try wait(for: Int16(POLLIN), what: what)
            case SSL_ERROR_WANT_WRITE: try wait(for: Int16(POLLOUT), what: what)
            default: throw tlsFailure("cannot \(what)")
            }
            return
        }
        let code = errno
        if code == EINTR { return }
        if code == EAGAIN || code == EWOULDBLOCK {
            try wait(for: Int16(POLLOUT), what: what)
            return
        }
        throw ModelProviderError(.transport, "cannot \(what) to \(endpoint): \(Posix.describe(errno: code))")
    }

    /// Handles a failed read; returns true when it means end of file.
    private func settleRead(result: Int) throws(ModelProviderError) -> Bool {
        if let tls {
            switch SSL_get_error(tls, Int32(result)) {
            case SSL_ERROR_WANT_READ: try wait(for: Int16(POLLIN), what: "read the response")
            case SSL_ERROR_WANT_WRITE: try wait(for: Int16(POLLOUT), what: "read the response")
            case SSL_ERROR_ZERO_RETURN: return true
            case SSL_ERROR_SYSCALL where errno == 0: return true
            default: throw tlsFailure("the connection broke")
            }
            return false
        }
        let code = errno
        if code == EINTR { return false }
        if code == EAGAIN || code == EWOULDBLOCK {
            try wait(for: Int16(POLLIN), what: "read the response")
            return false
        }
        throw ModelProviderError(.transport, "the connection to \(endpoint) broke: \(Posix.describe(errno: code))")
    }

    /// Waits until the socket is ready for `events`, at most the idle timeout.
    private func wait(for events: Int16, what: String) throws(ModelProviderError) {
        let milliseconds = Int32(clamping: Int((idleTimeout * 1000).rounded(.up)))
        while true {
            if cancelled.load(ordering: .relaxed) { throw cancellation() }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let result = poll(&descriptor, 1, milliseconds)
            if result > 0 { return }
            if result == 0 {
                throw ModelProviderError(
                    .timeout, "\(endpoint) sent nothing within the time limit (\(what)); is the model still loading? try again")
            }
            if errno != EINTR {
                throw ModelProviderError(.transport, "cannot wait for \(endpoint): \(Posix.describe(errno: errno))")
            }
        }
    }

    private func cancellation() -> ModelProviderError {
        ModelProviderError(.cancelled, "the request to \(endpoint) was cancelled")
    }

    // MARK: - TLS

    /// The process's TLS client context: TLS 1.2 or later, peers verified against the default CA paths.
    private nonisolated(unsafe) static let context: OpaquePointer? = makeContext(certificateAuthorityFile: nil)

    private static func makeContext(certificateAuthorityFile: String?) -> OpaquePointer? {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return nil }
        _ = skillhost_ssl_ctx_require_tls12(context)
        if let certificateAuthorityFile {
            guard SSL_CTX_load_verify_locations(context, certificateAuthorityFile, nil) == 1 else {
                SSL_CTX_free(context)
                return nil
            }
        } else {
            SSL_CTX_set_default_verify_paths(context)
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = SSL_CTX_set_options(context, skillhost_ssl_ignore_unexpected_eof_option())
        return context
    }

    private func startTLS(host: String, certificateAuthorityFile: String?) throws(ModelProviderError) {
        let context = certificateAuthorityFile == nil ? Self.context : Self.makeContext(certificateAuthorityFile: certificateAuthorityFile)
        // SSL_new takes its own reference to the context.
        defer { if certificateAuthorityFile != nil, let context { SSL_CTX_free(context) } }
        guard let context, let session = SSL_new(context) else {
            throw tlsFailure("cannot set up TLS")
        }
        tls = session
        SSL_set_fd(session, socket)
        // Verify that the certificate names this host (or IP address), and send the name (SNI) unless it is
        // an address literal.
        SSL_set1_host(session, host)
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        if !isAddress { skillhost_ssl_set_server_name(session, host) }
        while true {
            let result = SSL_connect(session)
            if result == 1 { return }
            if cancelled.load(ordering: .relaxed) { throw cancellation() }
            switch SSL_get_error(session, result) {
            case SSL_ERROR_WANT_READ: try wait(for: Int16(POLLIN), what: "TLS handshake")
            case SSL_ERROR_WANT_WRITE: try wait(for: Int16(POLLOUT), what: "TLS handshake")
            default:
                let verification = SSL_get_verify_result(session)
                if verification != Int(X509_V_OK) {
                    let reason = String(cString: X509_verify_cert_error_string(verification))
                    throw ModelProviderError(
                        .transport,
                        "cannot reach \(endpoint) securely: its TLS certificate is not trusted (\(reason)); check the --base-url, or add the CA with SSL_CERT_FILE")
                }
                throw tlsFailure("TLS handshake failed")
            }
        }
    }

    /// A transport error with OpenSSL's reason, clearing its error queue.
    private func tlsFailure(_ what: String) -> ModelProviderError {
        let detail = OpenSSLErrors.lastReason().map { ": \($0)" } ?? (errno != 0 ? ": \(Posix.describe(errno: errno))" : "")
        return ModelProviderError(.transport, "\(what) with \(endpoint)\(detail)")
    }
}
