import Foundation
import Testing

/// `skillhost mcp --http … --tls-cert FILE --tls-key FILE`: native HTTPS with OpenSSL, reached by the Python
/// client trusting the certificate; bad certificate files are refused at start in one line.
@Suite(.serialized) struct HTTPSServerTests {
    @Test(.timeLimit(.minutes(2))) func thePythonClientCallsAToolOverHTTPS() throws {
        let python = try PythonClientTests.python()
        let (certificate, key) = try TestCertificate.make()
        let server = try HTTPTestServer(arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.stop() }
        #expect(server.log.contains("serving https://127.0.0.1:"))
        let script = """
            import sys, anyio, httpx2
            from mcp.client import Client
            from mcp.client.streamable_http import streamable_http_client
            async def main():
                http = httpx2.AsyncClient(headers={"Authorization": "Bearer " + sys.argv[2]}, verify=sys.argv[3])
                async with Client(streamable_http_client(sys.argv[1], http_client=http), mode="2026-07-28") as client:
                    result = await client.call_tool("fixture_echo", {"text": "over tls"})
                    print("echoed:", result.structured_content["echo"]["text"])
            anyio.run(main)
            """
        let result = try PythonClientTests.run(python, ["-c", script, "https://127.0.0.1:\(server.port)/mcp", server.writeToken, certificate])
        #expect(result.output.contains("echoed: over tls"), "\(result.output)\n\(server.log.suffix(2000))")
        // Plain HTTP to the TLS port is not served (the handshake fails; the server goes on).
        let plain = try RawHTTPClient(port: server.port)
        plain.send("GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(plain.response().status == 0)
    }

    @Test func aKeyThatIsNotTheCertificatesIsRefusedAtStart() throws {
        let (certificate, _) = try TestCertificate.make()
        let (_, otherKey) = try TestCertificate.make()
        let root = try HTTPTestServer.makeRoot()
        let result = try TestProcess.run(HTTPTestServer.binary, ["mcp", "--http", "127.0.0.1:0", "--tls-cert", certificate, "--tls-key", otherKey] + HTTPTestServer.globalOptions(root.root))
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot use the TLS key") && result.stderr.contains("mismatch"), "\(result.stderr)")
        let missing = try TestProcess.run(HTTPTestServer.binary, ["mcp", "--http", "127.0.0.1:0", "--tls-cert", "/nonexistent.pem", "--tls-key", otherKey] + HTTPTestServer.globalOptions(root.root))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot use the TLS certificate /nonexistent.pem"), "\(missing.stderr)")
    }
}
