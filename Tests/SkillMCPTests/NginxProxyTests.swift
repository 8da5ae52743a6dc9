import Foundation
import Glibc
import Testing

/// The nginx configuration docs/deploy.md shows (its ```nginx block, Debian's nginx) run as written, with test
/// ports and a self-signed certificate: TLS ends at nginx, a replica that is down is passed over, the Python
/// client's calls and event streams go through unbuffered, and the 401 challenge and the Protected Resource
/// Metadata name the public URL (`--resource`).
@Suite(.serialized) struct NginxProxyTests {
    /// The documented block inside the `http` context nginx needs, listening on `port` with the test's
    /// certificate, its upstreams at `replicas` (for 9001–9003), everything it writes under `folder`.
    static func configuration(port: Int, replicas: [Int], certificate: String, key: String, folder: String) throws -> String {
        let document = try String(contentsOfFile: MCPTestSupport.packageRoot + "/docs/deploy.md", encoding: .utf8)
        let start = try #require(document.range(of: "```nginx\n"))
        let end = try #require(document.range(of: "```", range: start.upperBound..<document.endIndex))
        var block = String(document[start.upperBound..<end.lowerBound])
        for (index, replica) in replicas.enumerated() {
            block = block.replacingOccurrences(of: "127.0.0.1:900\(index + 1)", with: "127.0.0.1:\(replica)")
        }
        block = block.replacingOccurrences(of: "listen 443 ssl;", with: "listen 127.0.0.1:\(port) ssl;")
        block = block.replacingOccurrences(of: "/etc/letsencrypt/live/mcp.example.com/fullchain.pem", with: certificate)
        block = block.replacingOccurrences(of: "/etc/letsencrypt/live/mcp.example.com/privkey.pem", with: key)
        return """
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log;
            daemon off;
            events {}
            http {
            access_log off;
            client_body_temp_path \(folder)/body;
            proxy_temp_path \(folder)/proxy;
            \(block)
            }

            """
    }

    @Test(.timeLimit(.minutes(2))) func theDocumentedConfigurationCarriesCallsAndStreamsOverTLS() throws {
        let nginx = "/usr/sbin/nginx"
        try #require(FileManager.default.isExecutableFile(atPath: nginx), "install nginx (scripts/ensure-deps.sh)")
        let python = try PythonClientTests.python()
        let (certificate, key) = try TestCertificate.make()
        let server = try HTTPTestServer(arguments: ["--resource", "https://127.0.0.1/mcp"])
        defer { server.stop() }
        let folder = server.root + "/nginx"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let port = try ScaleOutTests.freePort()
        // The first upstream is the live replica; the other two are ports nobody listens on.
        let replicas = [server.port, try ScaleOutTests.freePort(), try ScaleOutTests.freePort()]
        try Self.configuration(port: port, replicas: replicas, certificate: certificate, key: key, folder: folder)
            .write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        let check = try TestProcess.run(nginx, ["-t", "-c", folder + "/nginx.conf"])
        try #require(check.status == 0, "nginx -t: \(check.stdout)\(check.stderr)")
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: nginx)
        proxy.arguments = ["-c", folder + "/nginx.conf"]
        proxy.standardOutput = FileHandle.nullDevice
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        defer {
            proxy.terminate()
            proxy.waitUntilExit()
        }
        let script = """
            import sys, anyio, httpx2
            from mcp.client import Client
            from mcp.client.streamable_http import streamable_http_client
            URL, TOKEN, CA = sys.argv[1:4]
            async def main():
                async with httpx2.AsyncClient(verify=CA, timeout=30) as plain:
                    for _ in range(100):
                        try:
                            meta = await plain.get(URL.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"))
                            break
                        except httpx2.ConnectError:
                            await anyio.sleep(0.05)
                    print("metadata:", meta.status_code, meta.json()["resource"])
                    refused = await plain.post(URL, json={})
                    print("challenge:", refused.status_code, refused.headers.get("www-authenticate"))
                http = httpx2.AsyncClient(headers={"Authorization": "Bearer " + TOKEN}, verify=CA, timeout=30)
                async with Client(streamable_http_client(URL, http_client=http), mode="2026-07-28") as client:
                    for n in range(6):
                        result = await client.call_tool("fixture_echo", {"text": f"through nginx {n}"})
                        print("echoed:", result.structured_content["echo"]["text"])
                    # A call with a progress token is answered as an event stream, unbuffered by nginx.
                    progress = []
                    async def on_progress(value, total, message):
                        progress.append(value)
                    result = await client.call_tool("fixture_echo", {"text": "streamed"}, progress_callback=on_progress)
                    print("streamed:", result.structured_content["echo"]["text"])
            anyio.run(main)
            """
        let result = try PythonClientTests.run(python, ["-c", script, "https://127.0.0.1:\(port)/mcp", server.writeToken, certificate])
        let errors = (try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? ""
        let context = "\(result.output)\n--- nginx ---\n\(errors.suffix(1500))\n--- server ---\n\(server.log.suffix(1500))"
        #expect(result.status == 0, "\(context)")
        #expect(result.output.contains("metadata: 200 https://127.0.0.1/mcp"), "\(context)")
        #expect(result.output.contains(#"challenge: 401 Bearer realm="skillhost", resource_metadata="https://127.0.0.1/.well-known/oauth-protected-resource/mcp""#), "\(context)")
        for n in 0..<6 { #expect(result.output.contains("echoed: through nginx \(n)"), "\(context)") }
        #expect(result.output.contains("streamed: streamed"), "\(context)")
        #expect(server.log.contains("tools/call fixture_echo 200 ok"), "the calls reached the replica")
    }
}
