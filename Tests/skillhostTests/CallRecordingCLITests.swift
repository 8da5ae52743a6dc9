import Foundation
import SkillJSON
import Testing

/// Every front end records its calls in the history (docs/history.md): `skillhost call` and `skillhost mcp`
/// as well as `chat`, with the front end (and the MCP client's name) in the row and in `trace`; processes
/// recording at the same time lose nothing.
@Suite("Calls from every front end are recorded")
struct CallRecordingCLITests {
    func root() throws -> String {
        let root = HostTestSupport.temporaryDirectory("recording")
        try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
        try HostTestSupport.install(try HostTestSupport.fixturePlugin(), into: root + "/plugins", as: "fixture.so")
        return root
    }

    func trace(_ root: String, _ flags: [String] = []) throws -> [JSONValue] {
        let result = try HostTestSupport.skillhost(["trace", "--json"] + flags, root: root)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONValue(parsing: result.stdout).arrayValue)
    }

    @Test("skillhost call records each call, succeeded or failed, as front end call")
    func callRecords() throws {
        let root = try root()
        let ok = try HostTestSupport.skillhost(["call", "fixture.echo", #"{"text":"hi"}"#], root: root)
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try HostTestSupport.skillhost(["call", "fixture.echo", #"{"count":"x"}"#], root: root)
        #expect(bad.status == 5)
        let calls = try trace(root)
        #expect(calls.count == 2, "\(calls)")
        let failed = try #require(calls.first)
        let succeeded = try #require(calls.last)
        #expect(succeeded["skill"] == "fixture.echo")
        #expect(succeeded["status"] == "succeeded")
        #expect(succeeded["front_end"] == "call")
        #expect(succeeded["client"] == .null)
        #expect(succeeded["arguments"] == ["text": "hi"])
        #expect(succeeded["result"]?["echo"] == ["text": "hi"])
        #expect(succeeded["duration_ms"]?.doubleValue != nil)
        #expect(failed["status"] == "failed")
        #expect(failed["front_end"] == "call")
        #expect(failed["error"]?["kind"] == "invalidArguments")
        let text = try HostTestSupport.skillhost(["trace"], root: root)
        #expect(text.stdout.contains("fixture.echo"))
        #expect(text.stdout.contains("[call]"), "\(text.stdout)")
    }

    @Test("skillhost mcp records each tools/call with the client's name")
    func mcpRecords() throws {
        let root = try root()
        let result = try HostTestSupport.skillhost(["mcp"], root: root, stdin: """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"trace-test-client","version":"1.0"}}}
            {"jsonrpc":"2.0","method":"notifications/initialized"}
            {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fixture.echo","arguments":{"text":"over mcp"}}}
            {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fixture.echo","arguments":{"count":"x"}}}

            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 3, "\(result.stdout)")
        let calls = try trace(root)
        #expect(calls.count == 2, "\(calls)")
        for call in calls {
            #expect(call["front_end"] == "mcp")
            #expect(call["client"] == "trace-test-client")
            #expect(call["skill"] == "fixture.echo")
        }
        #expect(Set(calls.compactMap { $0["status"]?.stringValue }) == ["succeeded", "failed"])
        #expect(calls.contains { $0["arguments"] == ["text": "over mcp"] })
        let text = try HostTestSupport.skillhost(["trace"], root: root)
        #expect(text.stdout.contains("[mcp: trace-test-client]"), "\(text.stdout)")
        // The connection is a session of its own, named for its client.
        let history = try HostTestSupport.skillhost(["history", "--json"], root: root)
        let sessions = try #require(try JSONValue(parsing: history.stdout).arrayValue)
        #expect(sessions.contains { $0["title"]?.stringValue?.contains("trace-test-client") == true }, "\(sessions)")
    }

    @Test("calls made by many processes at once are all recorded")
    func concurrentProcessesLoseNothing() throws {
        let root = try root()
        let binary = try HostTestSupport.skillhostBinary()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        environment["SKILLHOST_STATE"] = root + "/state"
        let global = ["--plugins", root + "/plugins", "--registry", root + "/config/skill_registry.json", "--cache", root + "/cache"]
        let mcpCalls = 40
        var lines = [
            #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"burst","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ]
        for index in 1...mcpCalls {
            lines.append(#"{"jsonrpc":"2.0","id":\#(index),"method":"tools/call","params":{"name":"fixture.echo","arguments":{"count":\#(index)}}}"#)
        }
        let server = try TestProcess.start(binary, ["mcp"] + global, environment: environment, stdin: lines.joined(separator: "\n") + "\n")
        let callers = try (0..<8).map { index in
            try TestProcess.start(binary, ["call", "fixture.echo", #"{"count":\#(100 + index)}"#] + global, environment: environment)
        }
        for caller in callers {
            let finished = TestProcess.finish(caller.process, output: caller.output, errors: caller.errors)
            #expect(finished.status == 0, "\(finished.stderr)")
        }
        let served = TestProcess.finish(server.process, output: server.output, errors: server.errors)
        #expect(served.status == 0, "\(served.stderr)")
        let calls = try trace(root, ["--limit", "1000"])
        #expect(calls.filter { $0["front_end"] == "call" }.count == 8)
        #expect(calls.filter { $0["front_end"] == "mcp" }.count == mcpCalls)
        let counts = Set(calls.compactMap { $0["arguments"]?["count"]?.intValue })
        #expect(counts == Set((1...mcpCalls).map(Int64.init) + (100..<108).map(Int64.init)))
    }
}
