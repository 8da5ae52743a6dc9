import Foundation
import Glibc

/// A test's own HTTP client over a plain socket, to send what no well-behaved client sends (a head that never
/// ends, a huge body, a request and then no reading) and read exactly what the server answers.
final class RawHTTPClient {
    let descriptor: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (a slow reader).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TestFailure("cannot connect to port \(port): errno \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends bytes (false when the server closed the connection).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads one response (head and a Content-Length body), or what came before the server closed.
    func response() -> Response {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let response = Response(bytes) { return response }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return Response(bytes) ?? Response(status: 0, head: String(decoding: bytes, as: UTF8.self), body: "", closed: true) }
            bytes += buffer[0..<count]
        }
    }

    /// Whether the server closed the connection (a read returns end of file within `seconds`).
    func closedByServer(within seconds: Int = 10) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
            if count < 0 { return false }
        }
    }

    struct Response {
        var status: Int
        var head: String
        var body: String
        var closed = false

        init(status: Int, head: String, body: String, closed: Bool) {
            self.status = status
            self.head = head
            self.body = body
            self.closed = closed
        }

        /// A complete response in `bytes`, nil when more is needed.
        init?(_ bytes: [UInt8]) {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return nil }
            let head = String(text[..<end.lowerBound])
            let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
            var length = 0
            for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
            let bodyStart = text.utf8.distance(from: text.startIndex, to: end.upperBound)
            guard bytes.count >= bodyStart + length else { return nil }
            self.init(status: status, head: head, body: String(decoding: bytes[bodyStart..<bodyStart + length], as: UTF8.self), closed: false)
        }

        func field(_ name: String) -> String? {
            for line in head.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return nil
        }
    }
}
