import Foundation
import Glibc
import Testing

/// `skillhost mcp --http` stops promptly and cleanly on SIGTERM: sent the moment it says it is serving
/// (a signal caught only once a dispatch source was registered used to be lost then, and the server ran on),
/// and while a keep-alive connection is open and idle.
@Suite(.serialized) struct HTTPServiceStopTests {
    /// Waits up to `seconds` for the process to end; true when it did.
    static func ends(_ server: HTTPTestServer, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while server.process.isRunning, Date() < deadline { usleep(10_000) }
        return !server.process.isRunning
    }

    @Test func sigtermTheMomentItServesStopsIt() throws {
        let root = try HTTPTestServer.makeRoot()
        // Several times: the lost signal was a race of a few milliseconds after the "serving" line.
        for round in 0..<5 {
            let server = try HTTPTestServer(root: root)
            kill(server.process.processIdentifier, SIGTERM)
            #expect(Self.ends(server, within: 10), "round \(round): still running 10 s after SIGTERM\n\(server.log)")
            if server.process.isRunning { server.kill() }
            #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0, "round \(round)\n\(server.log)")
            #expect(server.log.contains("mcp: stopping"), "round \(round)\n\(server.log)")
        }
    }

    @Test func sigtermWithAnIdleKeepAliveConnectionStopsIt() throws {
        let server = try HTTPTestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send(MCPHTTPTransportTests.post(#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(MCPHTTPTransportTests.meta)}}"#,
                                               token: server.readToken, method: "tools/list", name: nil))
        #expect(client.response().status == 200)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(Self.ends(server, within: 10), "still running 10 s after SIGTERM\n\(server.log)")
        if server.process.isRunning { server.kill() }
        #expect(server.process.terminationStatus == 0, "\(server.log)")
        #expect(client.closedByServer(within: 5), "the open connection is closed on the stop")
    }
}
