import Foundation
import Testing

@testable import SkillAgent

/// SocketHTTPTransport against a peer we did not write: Python's `http.server` (plain and behind `ssl`),
/// answering with a chunked SSE stream written one event at a time.
@Suite("Socket HTTP transport against Python's http.server", .serialized)
struct SocketHTTPTransportTests {
    /// The peer: prints its port, serves one POST with a chunked `text/event-stream` body (each event a
    /// chunk, flushed with a pause) echoing the request's Authorization and Proxy-Authorization headers and
    /// body length, then exits.
    static let server = #"""
        import http.server, ssl, sys, time
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                events = ["data: auth=%s proxy=%s len=%d\n\n" % (self.headers.get("Authorization"),
                          self.headers.get("Proxy-Authorization"), len(body)),
                          "data: second\n\n", "data: [DONE]\n\n"]
                for event in events:
                    data = event.encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                    time.sleep(0.05)
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        if len(sys.argv) > 1:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.timeout = 20
        server.handle_request()
        """#

    /// Starts the peer (with TLS when `certificate` and `key` are given) and returns it with its port.
    static func startPeer(certificate: String? = nil, key: String? = nil) throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", server] + [certificate, key].compactMap { $0 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard let first = byte.first else { break }
            if first == 10 { break }
            line.append(first)
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self)), "the Python peer did not start")
        return (process, port)
    }

    /// A self-signed certificate for 127.0.0.1 made with the openssl command.
    static func makeCertificate() throws -> (certificate: String, key: String) { try TestCertificate.make() }

    static func request(port: Int, secure: Bool) -> HTTPRequest {
        HTTPRequest(
            url: "\(secure ? "https" : "http")://127.0.0.1:\(port)/v1/chat/completions",
            headers: ["Authorization": "Bearer sk-test", "Content-Type": "application/json"],
            body: Array(#"{"model":"m"}"#.utf8), idleTimeout: 10)
    }

    /// Sends and collects the body chunks as the transport yields them.
    static func exchange(_ transport: SocketHTTPTransport, _ request: HTTPRequest) async throws -> (HTTPResponseHead, [[UInt8]]) {
        let (head, body) = try await transport.send(request)
        var chunks: [[UInt8]] = []
        for try await chunk in body { chunks.append(chunk) }
        return (head, chunks)
    }

    @Test("plain HTTP: the chunked SSE stream arrives de-chunked, event by event, with our headers sent")
    func plainChunkedStream() async throws {
        let (peer, port) = try Self.startPeer()
        defer { peer.terminate() }
        let (head, chunks) = try await Self.exchange(SocketHTTPTransport(), Self.request(port: port, secure: false))
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream")
        let text = String(decoding: chunks.flatMap { $0 }, as: UTF8.self)
        #expect(text == "data: auth=Bearer sk-test proxy=None len=13\n\ndata: second\n\ndata: [DONE]\n\n")
        // Streamed as the server flushed (three pauses), not gathered into one piece at the end.
        #expect(chunks.count >= 2)
    }

    @Test("HTTPS: a certificate the client trusts works; an untrusted one is refused with a reason")
    func tls() async throws {
        let (certificate, key) = try Self.makeCertificate()
        let (peer, port) = try Self.startPeer(certificate: certificate, key: key)
        defer { peer.terminate() }
        var trusting = SocketHTTPTransport()
        trusting.certificateAuthorityFile = certificate
        let (head, chunks) = try await Self.exchange(trusting, Self.request(port: port, secure: true))
        #expect(head.status == 200)
        #expect(String(decoding: chunks.flatMap { $0 }, as: UTF8.self).hasSuffix("data: [DONE]\n\n"))

        let (untrustedPeer, untrustedPort) = try Self.startPeer(certificate: certificate, key: key)
        defer { untrustedPeer.terminate() }
        await #expect {
            _ = try await SocketHTTPTransport().send(Self.request(port: untrustedPort, secure: true))
        } throws: { error in
            guard let error = error as? ModelProviderError else { return false }
            return error.kind == .transport && error.message.contains("not trusted")
        }
    }

    @Test("a closed port is 'cannot reach'; a silent server times out")
    func failures() async throws {
        await #expect {
            _ = try await SocketHTTPTransport().send(HTTPRequest(url: "http://127.0.0.1:9/v1", idleTimeout: 5))
        } throws: { error in
            (error as? ModelProviderError)?.kind == .transport && (error as? ModelProviderError)?.message.contains("cannot reach") == true
        }
        // A listening socket that never answers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(listener, 4)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        await #expect {
            _ = try await SocketHTTPTransport().send(HTTPRequest(url: "http://127.0.0.1:\(port)/v1", idleTimeout: 0.3))
        } throws: { error in
            (error as? ModelProviderError)?.kind == .timeout
        }
    }
}
