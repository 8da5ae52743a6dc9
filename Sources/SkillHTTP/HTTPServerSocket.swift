import COpenSSL
import Glibc
import SkillPosix

/// One accepted connection, plain or TLS (OpenSSL), non-blocking: every call returns at once with what it
/// did or what it waits for (``HTTPServer``'s event loop calls it when the socket is ready). Used by the
/// loop's thread only.
final class HTTPServerSocket {
    let descriptor: Int32
    private(set) var tls: OpaquePointer?
    /// `host:port` of the peer.
    let peer: String

    init(descriptor: Int32, peer: String) {
        self.descriptor = descriptor
        self.peer = peer
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), 1 /* TCP_NODELAY */, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        if let tls {
            // A close_notify if the socket takes it now; the connection closes either way.
            SSL_shutdown(tls)
            SSL_free(tls)
            ERR_clear_error()
        }
        Glibc.close(descriptor)
    }

    /// What a step of TLS, a read or a write came to.
    enum Step: Equatable {
        /// Done (the handshake), or this many bytes read or written (> 0).
        case done(Int)
        /// Nothing now: wait until the socket is readable.
        case wantRead
        /// Nothing now: wait until the socket is writable.
        case wantWrite
        /// The peer closed the connection (a read).
        case closed
        /// The connection or TLS failed (the reason).
        case failed(String)
    }

    /// Sets up TLS on the connection (the handshake then runs in ``handshake()``); false when OpenSSL cannot.
    func beginTLS(_ context: OpaquePointer) -> Bool {
        guard let session = SSL_new(context) else { return false }
        tls = session
        SSL_set_fd(session, descriptor)
        // A write may end after whole records (the rest is written when the socket takes it), from a buffer
        // that has moved meanwhile (the connection's output grows while it waits).
        _ = SSL_ctrl(session, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        return true
    }

    /// Takes the TLS handshake as far as the socket allows.
    func handshake() -> Step {
        guard let tls else { return .done(0) }
        let result = SSL_accept(tls)
        if result == 1 { return .done(0) }
        switch SSL_get_error(tls, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        default: return .failed("TLS handshake failed" + TLSServerContext.lastError())
        }
    }

    /// Reads what is there into `buffer`.
    func read(into buffer: inout [UInt8]) -> Step {
        while true {
            let count: Int = buffer.withUnsafeMutableBytes { raw in
                if let tls { return Int(SSL_read(tls, raw.baseAddress, Int32(clamping: raw.count))) }
                return Glibc.recv(descriptor, raw.baseAddress, raw.count, 0)
            }
            if count > 0 { return .done(count) }
            if let tls {
                switch SSL_get_error(tls, Int32(count)) {
                case SSL_ERROR_ZERO_RETURN: return .closed
                case SSL_ERROR_WANT_READ: return .wantRead
                case SSL_ERROR_WANT_WRITE: return .wantWrite
                case SSL_ERROR_SYSCALL where errno == 0 || errno == ECONNRESET: return .closed
                default: return .failed("TLS read failed" + TLSServerContext.lastError())
                }
            }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wantRead
            case ECONNRESET: return .closed
            default: return .failed(Posix.describe(errno: errno))
            }
        }
    }

    /// Writes as much of `bytes` as the socket takes now.
    func write(_ bytes: UnsafeRawBufferPointer) -> Step {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return .done(0) }
        while true {
            let count: Int
            if let tls {
                count = Int(SSL_write(tls, start, Int32(clamping: bytes.count)))
            } else {
                count = Glibc.send(descriptor, start, bytes.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 { return .done(count) }
            if let tls {
                switch SSL_get_error(tls, Int32(count)) {
                case SSL_ERROR_WANT_READ: return .wantRead
                case SSL_ERROR_WANT_WRITE: return .wantWrite
                default: return .failed("TLS write failed" + TLSServerContext.lastError())
                }
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wantWrite
            default: return .failed(Posix.describe(errno: errno))
            }
        }
    }
}
