import Foundation
import SkillJSON
import Testing

@testable import SkillAgent

/// The socket transport through a real forward proxy (proxy.py from PyPI) on 127.0.0.1: http forwarded in
/// absolute form, https tunnelled with CONNECT and TLS to the origin inside, credentials from the proxy
/// URL, NO_PROXY, and the one-line errors for a proxy that refuses.
@Suite("HTTP transport through a proxy (proxy.py)", .serialized)
struct ProxyTransportTests {
    static let password = "s3cr3t-Pa55"
    static let credentials = "skill:\(password)"

    /// The text of a failed send, or nil when it succeeded.
    static func failure(_ transport: SocketHTTPTransport, _ request: HTTPRequest) async -> ModelProviderError? {
        do {
            let (_, body) = try await transport.send(request)
            for try await _ in body {}
            return nil
        } catch let error as ModelProviderError {
            return error
        } catch {
            Issue.record("not a ModelProviderError: \(error)")
            return nil
        }
    }

    @Test("http: a whole OpenAI turn goes through the proxy, which demands and gets the credentials")
    func plainHTTPThroughProxy() async throws {
        let proxy = try ProxyPeer(credentials: Self.credentials)
        defer { proxy.stop() }
        let server = try ReplayServer([.json("answer_time.json")])
        defer { server.stop() }
        let transport = SocketHTTPTransport(proxyEnvironment: ["HTTP_PROXY": proxy.url(credentials: Self.credentials)])
        let provider = OpenAIProvider(
            configuration: OpenAIConfiguration(baseURL: server.baseURL, model: "gpt-4o-mini", apiKey: "sk-test-1234", stream: false, idleTimeout: 10),
            transport: transport)
        var answer: String?
        for try await event in provider.respond(to: ModelRequest(messages: [.user("What time is it in Tokyo?")], tools: [])) {
            if case .reply(let reply) = event { answer = reply.content }
        }
        #expect(answer == "It is 10:00 in Tokyo.")
        let request = try #require(server.requests.first)
        // The proxy forwarded it (it adds Via) in origin form, with our API key and without its credentials.
        #expect(request.headers["via"]?.contains("proxy.py") == true)
        #expect(request.path == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer sk-test-1234")
        #expect(request.headers["proxy-authorization"] == nil)
    }

    @Test("https: CONNECT, then TLS with the origin inside the tunnel (its certificate checked against 127.0.0.1)")
    func tlsThroughTunnel() async throws {
        let proxy = try ProxyPeer(credentials: Self.credentials)
        defer { proxy.stop() }
        let (certificate, key) = try SocketHTTPTransportTests.makeCertificate()
        let (peer, port) = try SocketHTTPTransportTests.startPeer(certificate: certificate, key: key)
        defer { peer.terminate() }
        var transport = SocketHTTPTransport(proxyEnvironment: ["https_proxy": proxy.url(credentials: Self.credentials)])
        transport.certificateAuthorityFile = certificate
        let (head, chunks) = try await SocketHTTPTransportTests.exchange(
            transport, SocketHTTPTransportTests.request(port: port, secure: true))
        #expect(head.status == 200)
        let text = String(decoding: chunks.flatMap { $0 }, as: UTF8.self)
        // The API key reached the origin; the proxy's credentials stayed outside the tunnel.
        #expect(text == "data: auth=Bearer sk-test proxy=None len=13\n\ndata: second\n\ndata: [DONE]\n\n")
    }

    @Test("407: no credentials, or wrong ones, is one line naming the proxy and the fix, never the password")
    func proxyAuthenticationRequired() async throws {
        let proxy = try ProxyPeer(credentials: Self.credentials)
        defer { proxy.stop() }
        let server = try ReplayServer([.json("answer_time.json")])
        defer { server.stop() }
        let plain = HTTPRequest(url: server.baseURL + "/chat/completions", body: Array("{}".utf8), idleTimeout: 10)

        // http, forwarded: the proxy's 407 is not passed off as the server's answer.
        let missing = try #require(await Self.failure(SocketHTTPTransport(proxyEnvironment: ["http_proxy": proxy.url()]), plain))
        #expect(missing.status == 407)
        #expect(missing.message.contains("the proxy http://127.0.0.1:\(proxy.port) (from http_proxy) asks for credentials"))
        #expect(missing.message.contains("put them in http_proxy as http://user:password@host:port"))
        #expect(!missing.message.contains("\n"))

        // https: CONNECT refused; the message names the proxy without the wrong password.
        let wrong = "skill:not-\(Self.password)"
        let secure = HTTPRequest(url: "https://127.0.0.1:\(server.port)/v1/chat/completions", body: [], idleTimeout: 10)
        let refused = try #require(
            await Self.failure(SocketHTTPTransport(proxyEnvironment: ["HTTPS_PROXY": proxy.url(credentials: wrong)]), secure))
        #expect(refused.status == 407)
        #expect(refused.kind == .transport)
        #expect(refused.message.contains("the proxy http://127.0.0.1:\(proxy.port) (from HTTPS_PROXY) refused its credentials"))
        #expect(refused.message.contains("check the user and password in HTTPS_PROXY"))
        #expect(!refused.message.contains(Self.password))
        #expect(!refused.message.contains("skill:"))
        #expect(server.requests.isEmpty)
    }

    @Test("a broken answer to CONNECT is one line naming the proxy and what is wrong", arguments: [
        ("SSH-2.0-OpenSSH_9.2\r\n\r\n", "answered CONNECT 127.0.0.1:9 with something that is not HTTP"),
        ("HTTP/1.1 +20 OK\r\n\r\n", "answered CONNECT 127.0.0.1:9 with something that is not HTTP"),
        ("HTTP/1.1 200 Connection established\r\n\r\nHELLO", "sent data from 127.0.0.1:9 before the TLS handshake"),
        ("HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "p", count: 16 << 10) + "\r\n\r\n",
         "answered CONNECT 127.0.0.1:9 with a head longer than 16384 bytes"),
        ("HTTP/1.1 403 Blocked by policy\r\n\r\n", "does not allow 127.0.0.1:9 (HTTP 403 Blocked by policy)"),
        ("HTTP/1.1 200", "closed the connection instead of answering CONNECT 127.0.0.1:9"),
    ])
    func brokenTunnelReply(answer: String, message: String) async throws {
        let proxy = try ReplayServer([.raw(answer)])
        defer { proxy.stop() }
        let secure = HTTPRequest(url: "https://127.0.0.1:9/v1/chat/completions", body: [], idleTimeout: 10)
        let transport = SocketHTTPTransport(proxyEnvironment: ["HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"])
        let error = try #require(await Self.failure(transport, secure))
        #expect(error.message.contains("the proxy http://127.0.0.1:\(proxy.port) (from HTTPS_PROXY)"), "\(error.message)")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(!error.message.contains("\n"))
        #expect(proxy.requests.first?.method == "CONNECT")
    }

    @Test("a CONNECT reply head of 16 KiB is accepted however its bytes arrive; one byte more is refused")
    func tunnelHeadLimitDoesNotDependOnPieces() async throws {
        let secure = HTTPRequest(url: "https://127.0.0.1:9/v1/chat/completions", body: [], idleTimeout: 10)
        let limit = HTTPConnection.maximumTunnelReplyBytes
        for length in [limit, limit + 1] {
            let start = "HTTP/1.1 200 Connection established\r\nX-Pad: "
            let head = start + String(repeating: "p", count: length - start.utf8.count)
            // The head and the first byte of its blank line, then (a pause later) the rest of the line.
            let proxy = try ReplayServer([.raw(head + "\r\n\r\n", pieceSize: length + 1, pause: 0.3)])
            defer { proxy.stop() }
            let transport = SocketHTTPTransport(proxyEnvironment: ["HTTPS_PROXY": "http://127.0.0.1:\(proxy.port)"])
            let error = try #require(await Self.failure(transport, secure))
            if length > limit {
                #expect(error.message.contains("with a head longer than \(limit) bytes"), "\(error.message)")
            } else {
                // The tunnel was made: the fake proxy is no TLS server.
                #expect(error.message.contains("TLS handshake failed with 127.0.0.1:9 through the proxy"), "\(error.message)")
            }
        }
    }

    @Test("502 on CONNECT: the proxy cannot reach the origin")
    func badGateway() async throws {
        let proxy = try ProxyPeer()
        defer { proxy.stop() }
        let closed = HTTPRequest(url: "https://127.0.0.1:9/v1/chat/completions", idleTimeout: 10)
        let error = try #require(await Self.failure(SocketHTTPTransport(proxyEnvironment: ["ALL_PROXY": proxy.url()]), closed))
        #expect(error.status == 502)
        #expect(error.message.contains("the proxy http://127.0.0.1:\(proxy.port) (from ALL_PROXY) could not reach 127.0.0.1:9 (HTTP 502"))
    }

    @Test("NO_PROXY: a listed host is reached directly, past a proxy that would refuse it")
    func noProxyBypass() async throws {
        let proxy = try ProxyPeer(credentials: Self.credentials)
        defer { proxy.stop() }
        let server = try ReplayServer([.json("answer_time.json"), .json("answer_time.json")])
        defer { server.stop() }
        let request = HTTPRequest(url: server.baseURL + "/chat/completions", body: Array("{}".utf8), idleTimeout: 10)
        for list in ["localhost, 127.0.0.0/8", "127.0.0.1:\(server.port)"] {
            let transport = SocketHTTPTransport(proxyEnvironment: ["HTTP_PROXY": proxy.url(), "NO_PROXY": list])
            let (head, body) = try await transport.send(request)
            for try await _ in body {}
            #expect(head.status == 200, "NO_PROXY=\(list)")
        }
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.headers["via"] == nil })
    }

    @Test("a proxy that is not listening: 'cannot reach the proxy', naming the variable")
    func unreachableProxy() async throws {
        let request = HTTPRequest(url: "http://example.invalid/v1/chat/completions", idleTimeout: 5)
        let error = try #require(
            await Self.failure(SocketHTTPTransport(proxyEnvironment: ["HTTP_PROXY": "http://user:hunter2@127.0.0.1:9"]), request))
        #expect(error.kind == .transport)
        #expect(error.message.hasPrefix("cannot reach the proxy http://127.0.0.1:9 (from HTTP_PROXY)"))
        #expect(error.message.contains("list example.invalid in NO_PROXY"))
        #expect(!error.message.contains("hunter2"))
    }
}
