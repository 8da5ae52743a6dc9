import Foundation
import SkillJSON
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 that replays recorded Chat Completions responses, one per request,
/// in order, and records the requests. The body is written in small pieces with short pauses so clients
/// see SSE events split at arbitrary byte boundaries. It stops itself after `lifetime` seconds. The agent's
/// tests replay their recorded fixtures through it; `skillhost ui`'s browser tests script the model with it.
public final class ReplayServer: Sendable {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        /// Bytes per write (0: all at once).
        public var pieceSize: Int
        /// Seconds to wait before answering (a slow model); the server stops waiting when stopped.
        public var delay: Double = 0
        /// Whether `body` is the whole answer, written as it is without a head (a broken server or proxy).
        public var isRaw = false
        /// Seconds between two pieces of `body` (the default: 2 ms).
        public var pause = 0.002

        /// A response with these parts.
        public init(
            status: Int, headers: [String: String], body: [UInt8], pieceSize: Int, delay: Double = 0, isRaw: Bool = false,
            pause: Double = 0.002
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.pieceSize = pieceSize
            self.delay = delay
            self.isRaw = isRaw
            self.pause = pause
        }

        /// `bytes` as the whole answer, in one write, or in writes of `pieceSize` bytes `pause` seconds apart.
        public static func raw(_ bytes: String, pieceSize: Int = 0, pause: Double = 0) -> Response {
            Response(status: 0, headers: [:], body: Array(bytes.utf8), pieceSize: pieceSize, isRaw: true, pause: pause)
        }
    }

    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var headers: [String: String]
        public var body: JSONValue?
    }

    public let port: UInt16
    private let socket: Int32
    private let state: Mutex<(responses: [Response], requests: [Request], stopped: Bool)>

    public init(_ responses: [Response], lifetime: Double = 30) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw TestSetupError("bind/listen failed")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        socket = fd
        state = Mutex((responses, [], false))
        let deadline = Date().addingTimeInterval(lifetime)
        let thread = Thread { [self] in serve(until: deadline) }
        thread.start()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    public var requests: [Request] { state.withLock { $0.requests } }

    public func stop() { state.withLock { $0.stopped = true } }

    /// Replaces what is left to answer with `responses` and forgets the requests seen so far: one server
    /// for several tests (the backend behind LiteLLM, which is started once per run).
    public func play(_ responses: [Response]) {
        state.withLock { state in
            state.responses = responses
            state.requests = []
        }
    }

    private func serve(until deadline: Date) {
        defer { close(socket) }
        while Date() < deadline, !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            data.append(contentsOf: buffer[0..<count])
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: data) {
                headerEnd = end + 4
                let head = String(decoding: data[0..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
            if let headerEnd, data.count >= headerEnd + contentLength { break }
        }
        let end = headerEnd!
        let lines = String(decoding: data[0..<(end - 4)], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let body = try? JSONValue(parsing: Array(data[end..<(end + contentLength)]))
        let request = Request(
            method: requestLine.count > 0 ? String(requestLine[0]) : "", path: requestLine.count > 1 ? String(requestLine[1]) : "",
            headers: headers, body: body)
        let response: Response = state.withLock { state in
            state.requests.append(request)
            return state.responses.isEmpty
                ? Response(status: 500, headers: [:], body: Array(#"{"error":{"message":"no more recorded responses"}}"#.utf8), pieceSize: 0)
                : state.responses.removeFirst()
        }
        let answerAt = Date().addingTimeInterval(response.delay)
        while Date() < answerAt, !state.withLock({ $0.stopped }) { usleep(20_000) }
        if !response.isRaw {
            var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\nConnection: close\r\n"
            for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
            if response.pieceSize == 0 { head += "Content-Length: \(response.body.count)\r\n" }
            head += "\r\n"
            Self.write(Array(head.utf8), to: client)
        }
        if response.pieceSize == 0 {
            Self.write(response.body, to: client)
            return
        }
        var offset = 0
        while offset < response.body.count {
            let next = min(offset + response.pieceSize, response.body.count)
            Self.write(Array(response.body[offset..<next]), to: client)
            offset = next
            usleep(useconds_t(response.pause * 1_000_000))
        }
    }

    private static func write(_ bytes: [UInt8], to client: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
            return start
        }
        return nil
    }
}
