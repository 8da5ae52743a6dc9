import Foundation
import Glibc
import SkillJSON
import Testing

/// MCP servers reached over Streamable HTTP as skill sources (issue #35, docs/mcp-sources.md "HTTP servers"),
/// and the client's choice of revision (`server/discover` → the stateless 2026-07-28; otherwise
/// `initialize`): against our own `skillhost mcp --http` (with a bearer token from the user's environment)
/// and against a server we did not write — the Python `mcp` SDK's `MCPServer` (Tests/Peers/
/// mcp_sdk_source_server.py, from PyPI into `.build/peers/mcp`) over uvicorn and over stdio, each with and
/// without its `server/discover`. Every bad input has its one-line message.
@Suite(.serialized) struct MCPSourceHTTPTests {
    static let peer = PythonVirtualEnvironment(name: "mcp", packages: ["mcp>=2"], probe: "import mcp.client.stdio")
    static let script = MCPTestSupport.packageRoot + "/Tests/Peers/mcp_sdk_source_server.py"

    /// A client's home: its own registry, state and data, and the variables it exports.
    struct Home {
        let root = MCPTestSupport.temporaryDirectory("mcp-http-sources")
        var exported: [String: String] = [:]

        /// What `skillhost` runs with: the home's folders and the exported variables.
        var environment: [String: String] {
            ["SKILLHOST_STATE": root + "/state", "XDG_DATA_HOME": root, "PATH": "/usr/bin:/bin", "HOME": root].merging(exported) { $1 }
        }

        func run(_ arguments: [String]) throws -> ProcessResult {
            try TestProcess.run(HTTPTestServer.binary, [arguments[0]] + HTTPTestServer.globalOptions(root) + arguments.dropFirst(), environment: environment)
        }

        func json(_ arguments: [String]) throws -> JSONValue {
            let result = try run(arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return (try? JSONValue(parsing: Array(result.stdout.utf8))) ?? .null
        }

        /// The one line `list` shows under server `name` for its error.
        func listedError(_ name: String) throws -> String {
            let listed = try json(["list"])
            let server = listed["mcp_servers"]?.arrayValue?.first { $0["name"]?.stringValue == name }
            return server?["error"]?.stringValue ?? "(no error: \(server?.serialized() ?? "not listed"))"
        }
    }

    /// The SDK's server over HTTP on a free port with `token`; stopped when the test ends.
    final class SDKServer {
        let process: Process
        let port: Int
        var url: String { "http://127.0.0.1:\(port)/mcp" }

        init(token: String, legacy: Bool = false) throws {
            let python = try MCPSourceHTTPTests.peer.python()
            // Its stderr into a file (a pipe nobody reads would fill and stop it).
            let log = MCPTestSupport.temporaryDirectory("sdk-server") + "/server.log"
            FileManager.default.createFile(atPath: log, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [MCPSourceHTTPTests.script, "http", "0", token] + (legacy ? ["--legacy"] : [])
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try process.run()
            self.process = process
            var found: Int?
            let deadline = Date().addingTimeInterval(60)
            while found == nil, Date() < deadline, process.isRunning {
                let seen = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = seen.range(of: "serving on ") {
                    found = Int(seen[range.upperBound...].prefix { $0.isNumber })
                } else {
                    usleep(50_000)
                }
            }
            guard let found else {
                if process.isRunning { process.terminate() }
                throw TestFailure("the SDK's server did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            port = found
        }

        deinit {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func ourOwnServerOverHTTPWithATokenFromTheEnvironment() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        var home = Home()
        let added = try home.run(["add-mcp", "remote", "--url", server.url, "--header", "Authorization: Bearer ${REMOTE_TOKEN}"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(!((try? String(contentsOfFile: home.root + "/config/skill_registry.json", encoding: .utf8)) ?? "").contains(server.readToken))

        // The variable is not exported yet: the start is refused, naming it.
        #expect(try home.listedError("remote") == "MCP server remote's header Authorization (mcp_servers.remote.headers) refers to ${REMOTE_TOKEN}, which is not set in this environment; export REMOTE_TOKEN before starting skillhost")

        // A token the server does not know: its 401, in one line with the fix.
        home.exported["REMOTE_TOKEN"] = "skh_not-a-token"
        #expect(try home.listedError("remote") == "MCP server remote (\(server.url)) refused server/discover with HTTP 401 Unauthorized; export REMOTE_TOKEN with a token the server accepts (the header refers to ${REMOTE_TOKEN})")

        home.exported["REMOTE_TOKEN"] = server.readToken
        let listed = try home.json(["list"])
        let tools = listed["mcp_servers"]?.arrayValue?.first?["tools"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(tools.contains("remote.fixture_echo"), "\(listed)")
        let inspected = try home.json(["inspect", "remote"])
        #expect(inspected["transport"]?["type"] == "http" && inspected["transport"]?["url"]?.stringValue == server.url, "\(inspected)")
        #expect(inspected["sandbox"]?["confined"] == false)
        #expect(inspected["protocol"] == "2026-07-28", "our server offers server/discover: \(inspected)")
        let text = try home.run(["inspect", "remote"])
        #expect(text.stdout.contains("transport:   http: \(server.url)"), "\(text.stdout)")

        let called = try home.json(["call", "remote.fixture_echo", #"{"text":"über HTTP"}"#])
        #expect(called["result"]?.serialized().contains("über HTTP") == true, "\(called)")
        #expect(server.log.contains("tools/call"), "\(server.log)")
        let trace = try home.run(["trace"])
        #expect(trace.stdout.contains("remote.fixture_echo"), "recorded like any call: \(trace.stdout)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: [false, true])
    func theSDKServerOverHTTP(legacy: Bool) throws {
        let server = try SDKServer(token: "sdk-secret", legacy: legacy)
        var home = Home()
        home.exported["SDK_TOKEN"] = "sdk-secret"
        #expect(try home.run(["add-mcp", "sdk", "--url", server.url, "--header", "Authorization: Bearer ${SDK_TOKEN}"]).status == 0)
        let called = try home.json(["call", "sdk.echo", #"{"text":"héllo"}"#])
        #expect(called["result"]?.serialized().contains("héllo") == true, "\(called)")
        let inspected = try home.json(["inspect", "sdk"])
        #expect(inspected["protocol"]?.stringValue == (legacy ? "2025-11-25" : "2026-07-28"), "\(inspected)")

        // Progress on the event stream restarts the clock: 1.2 s of work passes a 0.5 s limit.
        try setToolTimeout(home, server: "sdk", tool: "sdk.slow", seconds: 0.5)
        let slow = try home.json(["call", "sdk.slow", "{}"])
        #expect(slow["result"]?.serialized().contains("done") == true, "\(slow)")

        // 17 MiB: over the limit of a skill's result, refused in one line.
        let huge = try home.run(["call", "sdk.huge", "{}"])
        #expect(huge.status != 0)
        #expect(huge.stderr == "skillhost: call: MCP server sdk (\(server.url)) sent a message of more than 16 MiB (the most a skill's result may have); it was refused: ask the tool for less (a filter or a page)\n")

        // The server's own 401 (a check we did not write either).
        home.exported["SDK_TOKEN"] = "wrong"
        #expect(try home.listedError("sdk") == "MCP server sdk (\(server.url)) refused server/discover with HTTP 401 Unauthorized; export SDK_TOKEN with a token the server accepts (the header refers to ${SDK_TOKEN})")
    }

    @Test(.timeLimit(.minutes(5)), arguments: [false, true])
    func theSDKServerOverStdio(legacy: Bool) throws {
        let python = try Self.peer.python()
        let home = Home()
        let added = try home.run(["add-mcp", "sdk", "--read", MCPTestSupport.packageRoot + "/Tests/Peers", "--", python, Self.script, "stdio"] + (legacy ? ["--legacy"] : []))
        #expect(added.status == 0, "\(added.stderr)")
        let called = try home.json(["call", "sdk.echo", #"{"text":"héllo"}"#])
        #expect(called["result"]?.serialized().contains("héllo") == true, "\(called)")
        // Without its discover handler the SDK's stdio server still takes the probe as settling 2026-07-28 and
        // refuses the initialize that follows (-32022): the client then speaks the stateless revision.
        let inspected = try home.json(["inspect", "sdk"])
        #expect(inspected["protocol"]?.stringValue == "2026-07-28", "\(inspected)")
        #expect(inspected["transport"]?["type"] == "stdio")
        let huge = try home.run(["call", "sdk.huge", "{}"])
        #expect(huge.status != 0)
        #expect(huge.stderr.contains("MCP server sdk sent a message of more than 16 MiB"), "\(huge.stderr)")
    }

    /// The server's tools change while ONE `skillhost mcp` runs (docs/mcp-sources.md, "Lifecycle"): on a
    /// 2025-11-25 session (`legacy`) whose `initialize` says `tools.listChanged`, the SDK sends its
    /// `notifications/tools/list_changed` on the standalone `GET` stream (not in `grow`'s answer); under
    /// 2026-07-28 on the stream of a `subscriptions/listen` request. The client listens there and drops its
    /// cached tools, so the gateway's client (a Python `mcp` client, Tests/Peers/mcp_source_change_client.py)
    /// can call `sdk_grown`, which makes `skillhost mcp` list again (its own listing is not recomputed on the
    /// notice alone: docs/mcp-sources.md, "Not yet") and send its own notice. Before the client listened, the
    /// tools were cached for the process: `sdk_grown` was refused as unknown for good.
    @Test(.timeLimit(.minutes(3)), arguments: [true, false])
    func aServersNewToolReachesALongLivedGateway(legacy: Bool) throws {
        let server = try SDKServer(token: "sdk-secret", legacy: legacy)
        var home = Home()
        home.exported["SDK_TOKEN"] = "sdk-secret"
        #expect(try home.run(["add-mcp", "sdk", "--url", server.url, "--header", "Authorization: Bearer ${SDK_TOKEN}"]).status == 0)
        let client = MCPTestSupport.packageRoot + "/Tests/Peers/mcp_source_change_client.py"
        let ran = try TestProcess.run(
            try Self.peer.python(),
            [client, "20", HTTPTestServer.binary, "mcp"] + HTTPTestServer.globalOptions(home.root) + ["--allow-writes"],
            environment: home.environment)
        #expect(ran.status == 0, "\(ran.stderr)")
        let seen = (try? JSONValue(parsing: Array(ran.stdout.utf8))) ?? .null
        let before = seen["before"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let after = seen["after"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(before.contains("sdk_grow") && !before.contains("sdk_grown"), "\(ran.stdout)")
        #expect(after.contains("sdk_grown"), "the new tool was not offered within 20 s: \(ran.stdout) \(ran.stderr)")
        #expect(seen["grown"]?.serialized().contains("grown here") == true, "\(ran.stdout)")
        #expect(seen["announced"] == true, "skillhost mcp did not send its own notifications/tools/list_changed: \(ran.stdout)")
    }

    @Test(.timeLimit(.minutes(3)))
    func badInputsAreOneLineEach() throws {
        let server = try SDKServer(token: "t")
        var home = Home()
        home.exported["T"] = "t"
        let badURL = try home.run(["add-mcp", "bad", "--url", "ftp://example.com/mcp"])
        #expect(badURL.status != 0)
        #expect(badURL.stderr == "skillhost: add-mcp: MCP server bad: --url must be an http:// or https:// URL such as https://example.com/mcp, got \"ftp://example.com/mcp\"\n")

        // Nothing listens on the port (it was free a moment ago).
        let closed = try ScaleOutTests.freePort()
        #expect(try home.run(["add-mcp", "gone", "--url", "http://127.0.0.1:\(closed)/mcp"]).status == 0)
        #expect(try home.listedError("gone") == "MCP server gone (http://127.0.0.1:\(closed)/mcp): cannot reach 127.0.0.1:\(closed) (Connection refused); is the server running and the URL right?")
        let call = try home.run(["call", "gone.anything", "{}"])
        #expect(call.status != 0 && call.stderr.split(separator: "\n").count == 1 && call.stderr.contains("cannot reach 127.0.0.1:\(closed)"), "\(call.stderr)")

        // A web page where the MCP endpoint should be.
        let page = "http://127.0.0.1:\(server.port)/html"
        #expect(try home.run(["add-mcp", "page", "--url", page]).status == 0)
        #expect(try home.listedError("page") == "MCP server page (\(page)) answered server/discover with text/html, not JSON-RPC (application/json or text/event-stream); check that the URL is the server's MCP endpoint (often …/mcp)")

        // A path the server does not serve.
        let other = "http://127.0.0.1:\(server.port)/other"
        #expect(try home.run(["add-mcp", "other", "--url", other, "--header", "Authorization: Bearer ${T}"]).status == 0)
        #expect(try home.listedError("other") == "MCP server other (\(other)) answered initialize with HTTP 404: Not Found; check the URL (skillhost inspect other) and that the server speaks MCP's Streamable HTTP there")

        // No token at all: the 401 says how to add one.
        #expect(try home.run(["add-mcp", "open", "--url", server.url]).status == 0)
        #expect(try home.listedError("open") == "MCP server open (\(server.url)) refused server/discover with HTTP 401 Unauthorized; add a token with 'skillhost add-mcp open --url \(server.url) --header \"Authorization: Bearer ${TOKEN}\" --replace' and export TOKEN")

        // A written-out token is never stored.
        let literal = try home.run(["add-mcp", "lit", "--url", server.url, "--header", "Authorization: Bearer t"])
        #expect(literal.status != 0 && literal.stderr.contains("holds a secret written out"), "\(literal.stderr)")
    }

    /// Sets `mcp_servers.SERVER.tools.TOOL.timeout` in the home's registry.
    func setToolTimeout(_ home: Home, server: String, tool: String, seconds: Double) throws {
        let path = home.root + "/config/skill_registry.json"
        guard case .object(var registry) = try JSONValue(parsing: Array(try String(contentsOfFile: path, encoding: .utf8).utf8)),
            case .object(var servers)? = registry["mcp_servers"], case .object(var entry)? = servers[server]
        else { throw TestFailure("no entry \(server) in \(path)") }
        entry["tools"] = [tool: ["timeout": .double(seconds)]]
        servers[server] = .object(entry)
        registry["mcp_servers"] = .object(servers)
        try MCPTestSupport.write(JSONValue.object(registry).serialized(), to: path)
    }
}
