import Foundation
import SkillHostCore
import SkillJSON
import Synchronization
import Testing

/// A Streamable HTTP server's own messages on a 2025-11-25 session (issue #35, docs/mcp-sources.md
/// "Lifecycle"): when `initialize` says `tools.listChanged`, the client opens the standalone `GET` stream with
/// the session's headers, a `notifications/tools/list_changed` there drops the cached tools, and `close()`
/// ends the stream. Against a scripted HTTP client (the real server is MCPSourceHTTPTests').
@Suite struct MCPHTTPListeningTests {
    /// A server that answers `server/discover` with 404 (so the client initializes), `initialize` with a
    /// session and `tools.listChanged`, `tools/list` with one more tool each time, and keeps each `GET`
    /// stream open, sending what ``push(_:)`` gives.
    final class ScriptedServer: MCPHTTPClient {
        struct State {
            var listed = 0
            var gets: [[String: String]] = []
            var streams: [AsyncThrowingStream<[UInt8], any Error>.Continuation] = []
        }
        let state = Mutex(State())
        /// Yields once per `GET` stream that ended (its reader stopped).
        let ended = AsyncStream<Void>.makeStream()
        /// Yields once per `GET` stream opened.
        let opened = AsyncStream<Void>.makeStream()

        func push(_ message: JSONValue) {
            for stream in state.withLock({ $0.streams }) { stream.yield(Array(message.serialized().utf8)) }
        }

        func send(
            method: String, url: String, headers: [String: String], body: [UInt8], idleTimeout: Double, maximumEventBytes: Int
        ) async throws(HostError) -> MCPHTTPResponse {
            if method == "GET" {
                let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
                let ended = ended.continuation
                continuation.onTermination = { _ in ended.yield() }
                state.withLock { state in
                    state.gets.append(headers)
                    state.streams.append(continuation)
                }
                opened.continuation.yield()
                return MCPHTTPResponse(status: 200, headers: ["content-type": "text/event-stream"], isEventStream: true, body: stream)
            }
            let message = (try? JSONValue(parsing: body)) ?? .null
            guard method == "POST", let id = message["id"] else { return Self.response(202, nil) }
            switch message["method"]?.stringValue {
            case "server/discover":
                return Self.response(404, nil)
            case "initialize":
                var response = Self.response(200, ["jsonrpc": "2.0", "id": id, "result": [
                    "protocolVersion": "2025-11-25", "capabilities": ["tools": ["listChanged": true]], "serverInfo": ["name": "scripted"],
                ]])
                response.headers["mcp-session-id"] = "session-1"
                return response
            default:
                let count = state.withLock { state in
                    state.listed += 1
                    return state.listed
                }
                let tools = (1...count).map { JSONValue.object(["name": .string("tool\($0)"), "inputSchema": ["type": "object"]]) }
                return Self.response(200, ["jsonrpc": "2.0", "id": id, "result": ["tools": .array(tools)]])
            }
        }

        static func response(_ status: Int, _ body: JSONValue?) -> MCPHTTPResponse {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
            if let body { continuation.yield(Array(body.serialized().utf8)) }
            continuation.finish()
            return MCPHTTPResponse(status: status, headers: ["content-type": "application/json"], isEventStream: false, body: stream)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theGETStreamDropsTheCachedToolsAndEndsWithTheSession() async throws {
        let root = HostTestSupport.temporaryDirectory()
        let paths = HostPaths(plugins: root + "/plugins", registry: root + "/registry.json", cache: root + "/cache", data: root + "/data")
        var launcher = MCPServerLauncher(hostExecutable: "/bin/false", paths: paths, environment: ["TOKEN": "t0k"])
        let server = ScriptedServer()
        launcher.httpClient = server
        let entry = MCPServerEntry(name: "remote", transport: .http(url: "http://127.0.0.1:9/mcp", headers: ["Authorization": "Bearer ${TOKEN}"]))
        let session = MCPServerSession(entry: entry, launcher: launcher)
        let changed = AsyncStream<Void>.makeStream()
        session.toolsChanged.withLock { $0 = { changed.continuation.yield() } }

        #expect(try await session.tools().compactMap { $0["name"]?.stringValue } == ["tool1"])
        var opened = server.opened.stream.makeAsyncIterator()
        _ = await opened.next()
        let get = try #require(server.state.withLock { $0.gets.first })
        #expect(get["Accept"] == "text/event-stream")
        #expect(get["Mcp-Session-Id"] == "session-1")
        #expect(get["MCP-Protocol-Version"] == "2025-11-25")
        #expect(get["Authorization"] == "Bearer t0k")
        #expect(session.cachedTools != nil)

        server.push(["jsonrpc": "2.0", "method": "notifications/tools/list_changed"])
        var changes = changed.stream.makeAsyncIterator()
        _ = await changes.next()
        #expect(session.cachedTools == nil)
        #expect(try await session.tools().compactMap { $0["name"]?.stringValue } == ["tool1", "tool2"])

        // Closing the session stops the stream (it is not opened again).
        session.close()
        var ended = server.ended.stream.makeAsyncIterator()
        _ = await ended.next()
        #expect(server.state.withLock { $0.gets.count } == 1)
    }
}
