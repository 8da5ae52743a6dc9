import Foundation
import SkillJSON
import Synchronization

/// One MCP server as a skill source within a process (docs/mcp-sources.md, "Lifecycle"): started on first
/// use and kept; initialized with `initialize` (revision 2025-11-25); its `tools/list` cached until it sends
/// `notifications/tools/list_changed`. When it crashes, the calls it was running fail with how it ended, the
/// next use starts it again after a back-off (``CrashPolicy``: 50 ms doubling to 2 s), and after 5 crashes in
/// a row without a successful call it is broken: refused with the last crash as the reason until the process
/// ends. ``close()`` kills it (the host's shutdown does, for every session).
public final class MCPServerSession: Sendable {
    /// The revision the client speaks.
    public static let protocolVersion = "2025-11-25"
    /// How long starting and `initialize` may take.
    public static let startTimeout: Double = 30

    private struct State {
        var connection: MCPClientConnection?
        var starting: Task<MCPClientConnection, any Error>?
        var tools: [JSONValue]?
        var crashes = 0
        var lastCrash: HostError?
        var lastEnd = 0.0
        var serverInfo: JSONValue = .null
        var instructions: String?
        var capabilities: JSONValue = .null
    }

    public let entry: MCPServerEntry
    private let launcher: MCPServerLauncher
    private let crashPolicy: CrashPolicy
    private let state = Mutex(State())
    /// Called when the server said its tools changed (after the cache was dropped).
    public let toolsChanged: Mutex<(@Sendable () -> Void)?> = Mutex(nil)

    public init(entry: MCPServerEntry, launcher: MCPServerLauncher, crashPolicy: CrashPolicy = CrashPolicy()) {
        self.entry = entry
        self.launcher = launcher
        self.crashPolicy = crashPolicy
    }

    /// Whether it crashed too often in a row to be started again; the reason when so.
    public var brokenReason: String? {
        state.withLock { state in
            guard state.crashes >= crashPolicy.maximumConsecutiveCrashes else { return nil }
            return "MCP server \(entry.name) is broken after \(state.crashes) crashes in a row (the last: \(state.lastCrash?.message ?? "?")); fix it, then start skillhost again"
        }
    }

    /// The server's `serverInfo` (after the first start).
    public var serverInfo: JSONValue { state.withLock { $0.serverInfo } }

    /// The server's tools (`tools/list`, every page), cached.
    public func tools() async throws(HostError) -> [JSONValue] {
        if let cached = state.withLock({ $0.tools }) { return cached }
        let connection = try await connected()
        var tools: [JSONValue] = []
        var cursor: JSONValue?
        repeat {
            let result = try await connection.request(
                "tools/list", params: cursor.map { ["cursor": $0] } ?? [:], timeout: Self.startTimeout)
            tools += result["tools"]?.arrayValue ?? []
            cursor = result["nextCursor"]
            if tools.count > 10_000 { break }
        } while cursor != nil && cursor != .null
        let listed = tools
        state.withLock { $0.tools = listed }
        return listed
    }

    /// Calls `tool` (its name on the server) with `arguments`; the result as the server gave it.
    /// `timeout` counts from the request and restarts with each progress report.
    public func call(
        tool: String, arguments: JSONValue, timeout: Double, onProgress: (@Sendable (JSONValue) -> Void)? = nil
    ) async throws(HostError) -> JSONValue {
        let connection = try await connected()
        let result = try await connection.request(
            "tools/call", params: ["name": .string(tool), "arguments": arguments], timeout: timeout, onProgress: onProgress)
        state.withLock { $0.crashes = 0 }
        return result
    }

    /// The server's `capabilities` from `initialize`; starts it when it is not running.
    public func capabilities() async throws(HostError) -> JSONValue {
        _ = try await connected()
        return state.withLock { $0.capabilities }
    }

    /// Sends one request other than `tools/…` (the Skills extension's, `resources/read`); starts the server
    /// when it is not running. The result as the server gave it.
    public func request(_ method: String, params: JSONValue, timeout: Double) async throws(HostError) -> JSONValue {
        try await connected().request(method, params: params, timeout: timeout)
    }

    /// Kills the server (if running); a later use starts it again.
    public func close() {
        let connection = state.withLock { state -> MCPClientConnection? in
            defer { state.connection = nil; state.starting?.cancel(); state.starting = nil }
            return state.connection
        }
        connection?.close()
    }

    /// The running, initialized connection: started (once, shared by concurrent callers) when there is none.
    private func connected() async throws(HostError) -> MCPClientConnection {
        if let reason = brokenReason { throw HostError(.pluginCrashed, reason, pluginID: entry.name) }
        let task: Task<MCPClientConnection, any Error> = state.withLock { state in
            if let connection = state.connection, !connection.hasEnded {
                return Task { connection }
            }
            if let starting = state.starting { return starting }
            let wait = crashPolicy.backoff(afterCrashes: state.crashes) - (Posix.monotonicSeconds() - state.lastEnd)
            let starting = Task { [self] () async throws -> MCPClientConnection in
                if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                return try await start()
            }
            state.starting = starting
            return starting
        }
        do {
            return try await task.value
        } catch let error as HostError {
            throw error
        } catch {
            throw HostError(.cancelled, "starting MCP server \(entry.name) was cancelled", pluginID: entry.name)
        }
    }

    private func start() async throws(HostError) -> MCPClientConnection {
        let connection: MCPClientConnection
        do {
            connection = try launcher.start(entry)
        } catch {
            state.withLock { $0.starting = nil }
            throw error
        }
        connection.onToolsChanged.withLock { $0 = { [weak self] in self?.dropTools() } }
        connection.onEnded.withLock { $0 = { [weak self] error in self?.ended(connection, error) } }
        do {
            let result = try await connection.request("initialize", params: [
                "protocolVersion": .string(Self.protocolVersion),
                "capabilities": [:],
                "clientInfo": ["name": "skillhost", "version": "1"],
            ], timeout: Self.startTimeout)
            connection.notify("notifications/initialized")
            state.withLock { state in
                state.connection = connection
                state.starting = nil
                state.serverInfo = result["serverInfo"] ?? .null
                state.instructions = result["instructions"]?.stringValue
                state.capabilities = result["capabilities"] ?? .null
            }
            return connection
        } catch {
            connection.close()
            state.withLock { state in
                state.starting = nil
                state.crashes += 1
                state.lastCrash = error
                state.lastEnd = Posix.monotonicSeconds()
            }
            var error = error
            error.message = "MCP server \(entry.name) did not start: " + error.message
            throw error
        }
    }

    private func dropTools() {
        state.withLock { $0.tools = nil }
        toolsChanged.withLock { $0 }?()
    }

    /// The connection ended: a crash unless the host closed it.
    private func ended(_ connection: MCPClientConnection, _ error: HostError) {
        state.withLock { state in
            if state.connection === connection { state.connection = nil }
            guard !connection.wasClosed else { return }
            state.crashes += 1
            state.lastCrash = error
            state.lastEnd = Posix.monotonicSeconds()
            state.tools = nil
        }
    }
}
