import Foundation
import Glibc
import SkillMCP
import SkillHTTP
import Synchronization
import Testing

/// ``HTTPServer``'s one event loop for every connection: many connections at once, answers given later from
/// other threads (in order on a pipelining connection), a slow client or a half-written TLS record not
/// holding up the others, a loop driven by a caller's own thread (``HTTPServer/service(waitingUpTo:)``).
@Suite(.serialized) struct HTTPServerEventLoopTests {
    /// A server whose handler answers `GET /echo?X` with `X` (at once, or after `?delay=MS` on another
    /// thread) and counts the requests it was given.
    final class Echo: @unchecked Sendable {
        let server: HTTPServer
        let log = SentLines()

        init(limits: HTTPServerLimits = HTTPServerLimits(), tls: TLSServerContext? = nil, ownThread: Bool = true) throws {
            server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits, tls: tls, log: log.sink) { exchange in
                let query = exchange.request.target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                let delay = query.split(separator: "&").first { $0.hasPrefix("delay=") }.flatMap { Int($0.dropFirst(6)) }
                let answer = HTTPServerResponse.text(200, query)
                guard let delay else {
                    exchange.respond(answer)
                    return
                }
                // Answered later, from another thread, as a call's answer comes.
                Thread.detachNewThread {
                    usleep(useconds_t(delay * 1000))
                    exchange.respond(answer)
                }
            }
            if ownThread { server.start() }
        }

        deinit { server.stop() }

        var port: Int { Int(server.port) }
    }

    @Test func twoHundredConnectionsAtOnceAreEachAnswered() throws {
        let echo = try Echo()
        let clients = try (0..<200).map { _ in try RawHTTPClient(port: echo.port) }
        for (index, client) in clients.enumerated() {
            // Half answered at once, half later from other threads.
            client.send("GET /echo?n\(index)\(index % 2 == 0 ? "&delay=20" : "") HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        for (index, client) in clients.enumerated() {
            let response = client.response()
            #expect(response.status == 200, "client \(index): \(response.head)")
            #expect(response.body.hasPrefix("n\(index)"), "client \(index): \(response.body)")
        }
        #expect(echo.server.connections == 200)
        // And each connection stays open for its next request.
        clients[7].send("GET /echo?again HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(clients[7].response().body == "again\n")
    }

    @Test func pipelinedRequestsAnsweredLaterAreAnsweredInOrder() throws {
        let echo = try Echo()
        let client = try RawHTTPClient(port: echo.port)
        // Three requests in one write; the first is answered last in time, yet first on the wire.
        client.send("GET /echo?first&delay=150 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?second HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?third&delay=10 HTTP/1.1\r\nHost: x\r\n\r\n")
        // The answers may come in one read: read them all, then split.
        let text = MCPHTTPTransportTests.read(client) { $0.components(separatedBy: "HTTP/1.1 200 OK").count == 4 && $0.hasSuffix("delay=10\n") }
        let bodies = text.components(separatedBy: "\r\n\r\n").dropFirst().map { $0.components(separatedBy: "HTTP/1.1").first ?? "" }
        #expect(bodies == ["first&delay=150\n", "second\n", "third&delay=10\n"], "\(text)")
    }

    @Test func aSlowClientDoesNotHoldUpTheOthers() throws {
        let echo = try Echo()
        // A head that arrives a byte now and then (slowloris), and one that stops half-way.
        let slow = try RawHTTPClient(port: echo.port)
        let stuck = try RawHTTPClient(port: echo.port)
        stuck.send("GET /echo?stuck HTTP/1.1\r\nHo")
        let descriptor = slow.descriptor
        let dripping = Thread {
            for byte in Array("GET /echo?slow HTTP/1.1\r\nHost: x\r\n\r\n".utf8) {
                _ = [byte].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
                usleep(20_000)
            }
        }
        dripping.start()
        let started = Date()
        let fast = try RawHTTPClient(port: echo.port)
        for index in 0..<50 {
            fast.send("GET /echo?fast\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(fast.response().body == "fast\(index)\n")
        }
        let took = Date().timeIntervalSince(started)
        #expect(took < 0.5, "50 requests took \(took) s while a slow client dripped its head")
        // The slow client is served once its head is whole.
        #expect(slow.response().body == "slow\n")
    }

    @Test func aHeadStartedAndNeverFinishedTimesOutWhileAnIdleConnectionIsClosedQuietly() throws {
        var limits = HTTPServerLimits()
        limits.headTimeout = .milliseconds(300)
        limits.idleTimeout = .milliseconds(600)
        let echo = try Echo(limits: limits)
        let idle = try RawHTTPClient(port: echo.port)
        let partial = try RawHTTPClient(port: echo.port)
        partial.send("GET /echo?never HTTP/1.1\r\nHost")
        let refused = partial.response()
        #expect(refused.status == 408, "\(refused.head)")
        #expect(refused.body.contains("did not arrive whole within"))
        // The idle one gets no answer, only the close, after its own timeout.
        let started = Date()
        #expect(idle.closedByServer(within: 5))
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aCallersThreadCanRunTheLoop() throws {
        let echo = try Echo(ownThread: false)
        let driving = Driving()
        let server = echo.server
        let driver = Thread {
            while !driving.stop.load(ordering: .relaxed) {
                server.service(waitingUpTo: 50)
                driving.turns.wrappingAdd(1, ordering: .relaxed)
            }
        }
        driver.start()
        let client = try RawHTTPClient(port: echo.port)
        client.send("GET /echo?driven HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?later&delay=30 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.response().body == "driven\n")
        #expect(client.response().body == "later&delay=30\n")
        echo.server.stop()
        #expect(client.closedByServer(within: 5), "stop closes the connections")
        driving.stop.store(true, ordering: .relaxed)
        usleep(100_000)
        #expect(driving.turns.load(ordering: .relaxed) > 0)
    }

    final class Driving: Sendable {
        let stop = Atomic<Bool>(false)
        let turns = Atomic<Int>(0)
    }

    /// Over TLS: a client that sends half a TLS record and stops does not hold up the others; it is served
    /// once the rest of its record arrives. The clients are Python's `ssl` (the standard library).
    @Test(.timeLimit(.minutes(1))) func aHalfWrittenTLSRecordDoesNotHoldUpTheOthers() throws {
        let (certificate, key) = try TestCertificate.make()
        let echo = try Echo(tls: try TLSServerContext(certificateFile: certificate, keyFile: key))
        let script = """
            import socket, ssl, sys, threading, time
            port, cafile = int(sys.argv[1]), sys.argv[2]
            context = ssl.create_default_context(cafile=cafile)
            def request(path):
                with socket.create_connection(("127.0.0.1", port)) as raw:
                    with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                        tls.sendall(b"GET /echo?" + path + b" HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n")
                        data = b""
                        while True:
                            piece = tls.recv(65536)
                            if not piece: return data
                            data += piece
            def halves():
                # The handshake through memory BIOs, then one application record sent in two halves 1.5 s apart.
                raw = socket.create_connection(("127.0.0.1", port))
                incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
                tls = context.wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
                while True:
                    try:
                        tls.do_handshake()
                        break
                    except ssl.SSLWantReadError:
                        raw.sendall(outgoing.read())
                        incoming.write(raw.recv(65536))
                raw.sendall(outgoing.read())
                tls.write(b"GET /echo?halves HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n")
                record = outgoing.read()
                raw.sendall(record[: len(record) // 2])
                time.sleep(1.5)
                raw.sendall(record[len(record) // 2 :])
                data = b""
                while b"halves" not in data:
                    piece = raw.recv(65536)
                    if not piece: break
                    incoming.write(piece)
                    try:
                        data += tls.read(65536)
                    except ssl.SSLWantReadError:
                        pass
                print("halves:", data.split(b"\\r\\n")[0].decode(), flush=True)
            slow = threading.Thread(target=halves)
            slow.start()
            time.sleep(0.3)
            started = time.monotonic()
            for index in range(5):
                answer = request(b"quick%d" % index)
                assert answer.startswith(b"HTTP/1.1 200"), answer
            print("quick: %.3f s" % (time.monotonic() - started), flush=True)
            slow.join()
            """
        let result = try TestProcess.run("/usr/bin/env", ["python3", "-c", script, String(echo.port), certificate])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let quick = result.stdout.split(separator: "\n").first { $0.hasPrefix("quick: ") }.flatMap { Double($0.dropFirst(7).dropLast(2)) }
        #expect(quick.map { $0 < 1.2 } == true, "the five quick requests waited for the half record: \(result.stdout)")
        #expect(result.stdout.contains("halves: HTTP/1.1 200 OK"), "\(result.stdout)\n\(result.stderr)")
        // The quick ones came while the half record was waiting (the slow one ends last).
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.firstIndex { $0.hasPrefix("quick") } ?? 9 < lines.firstIndex { $0.hasPrefix("halves") } ?? 0, "\(result.stdout)")
    }
}
