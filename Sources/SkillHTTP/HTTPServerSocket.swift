import COpenSSL
import Glibc
import SkillPosix

/// One accepted connection, plain or TLS (OpenSSL), non-blocking underneath, with reads and writes that wait
/// with `poll` until a deadline. Used by its connection's thread only.
final class HTTPServerSocket {
    let descriptor: Int32
    private var tls: OpaquePointer?
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
            SSL_shutdown(tls)
            SSL_free(tls)
        }
        Glibc.close(descriptor)
    }

    /// Why a read or write stopped.
    enum Failure: Error, Equatable {
        /// The deadline passed.
        case timeout
        /// The peer closed or reset the connection, or TLS failed (the reason).
        case broken(String)
    }

    /// Completes the TLS handshake before `deadline`.
    func startTLS(_ context: OpaquePointer, deadline: UInt64) throws(Failure) {
        guard let session = SSL_new(context) else { throw .broken("cannot set up TLS") }
        tls = session
        SSL_set_fd(session, descriptor)
        while true {
            let result = SSL_accept(session)
            if result == 1 { return }
            switch SSL_get_error(session, result) {
            case SSL_ERROR_WANT_READ: try wait(Int16(POLLIN), until: deadline)
            case SSL_ERROR_WANT_WRITE: try wait(Int16(POLLOUT), until: deadline)
            default: throw .broken("TLS handshake failed" + TLSServerContext.lastError())
            }
        }
    }

    /// Reads what is there into `buffer`, waiting until `deadline`; 0 when the peer closed.
    func read(into buffer: inout [UInt8], until deadline: UInt64) throws(Failure) -> Int {
        while true {
            let count: Int = buffer.withUnsafeMutableBytes { raw in
                if let tls { return Int(SSL_read(tls, raw.baseAddress, Int32(clamping: raw.count))) }
                return Glibc.recv(descriptor, raw.baseAddress, raw.count, 0)
            }
            if count > 0 { return count }
            if let tls {
                switch SSL_get_error(tls, Int32(count)) {
                case SSL_ERROR_ZERO_RETURN: return 0
                case SSL_ERROR_WANT_READ: try wait(Int16(POLLIN), until: deadline)
                case SSL_ERROR_WANT_WRITE: try wait(Int16(POLLOUT), until: deadline)
                case SSL_ERROR_SYSCALL where errno == 0 || errno == ECONNRESET: return 0
                default: throw .broken("TLS read failed" + TLSServerContext.lastError())
                }
                continue
            }
            if count == 0 { return 0 }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(Int16(POLLIN), until: deadline)
            case ECONNRESET: return 0
            default: throw .broken(Posix.describe(errno: errno))
            }
        }
    }

    /// Writes all of `bytes`, waiting for the peer to read until `deadline` (a stalled reader times out).
    func write(_ bytes: [UInt8], until deadline: UInt64) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let count: Int = bytes.withUnsafeBytes { raw in
                let start = raw.baseAddress! + offset
                if let tls { return Int(SSL_write(tls, start, Int32(clamping: raw.count - offset))) }
                return Glibc.send(descriptor, start, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                offset += count
                continue
            }
            if let tls {
                switch SSL_get_error(tls, Int32(count)) {
                case SSL_ERROR_WANT_READ: try wait(Int16(POLLIN), until: deadline)
                case SSL_ERROR_WANT_WRITE: try wait(Int16(POLLOUT), until: deadline)
                default: throw .broken("TLS write failed" + TLSServerContext.lastError())
                }
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(Int16(POLLOUT), until: deadline)
            default: throw .broken(Posix.describe(errno: errno))
            }
        }
    }

    /// `POLLRDHUP` (a GNU extension Glibc's Swift module does not show).
    static let readHangUp: Int16 = 0x2000

    /// Whether the peer has closed its side or reset the connection (checked without waiting). Bytes the
    /// peer sent (a pipelined request) do not count.
    func peerHungUp() -> Bool {
        var entry = pollfd(fd: descriptor, events: Self.readHangUp, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & (Self.readHangUp | Int16(POLLHUP | POLLERR)) != 0
    }

    /// Waits until the socket is ready for `events`, at most until `deadline` (monotonic nanoseconds).
    func wait(_ events: Int16, until deadline: UInt64) throws(Failure) {
        while true {
            let now = Posix.monotonicNanoseconds()
            guard now < deadline else { throw .timeout }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let result = poll(&entry, 1, Int32(clamping: (deadline - now) / 1_000_000 + 1))
            if result > 0 {
                if entry.revents & Int16(POLLERR | POLLNVAL) != 0, entry.revents & events == 0 { throw .broken("the connection failed") }
                return
            }
            if result < 0, errno != EINTR { throw .broken(Posix.describe(errno: errno)) }
        }
    }

    /// Whether bytes (or a close) are waiting to be read, without waiting.
    var hasPendingInput: Bool {
        if let tls, SSL_pending(tls) > 0 { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }
}
