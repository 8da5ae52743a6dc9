import Foundation
import SkillJSON
import Synchronization

/// One MCP server as a skill source within a process (docs/mcp-sources.md, "Lifecycle"): started on first
/// use and kept; asked `server/discover` first, and when it speaks the stateless revision 2026-07-28 every
/// request carries its version and the client's capabilities in `_meta` (no `initialize`); otherwise
/// initialized with `initialize` (revision 2025-11-25); its `tools/list` cached until it sends
/// `notifications/tools/list_changed`. When it crashes, the calls it was running fail with how it ended, the
/// next use starts it again after a back-off (``CrashPolicy``: 50 ms doubling to 2 s), and after 5 crashes in
/// a row without a successful call it is broken: refused with the last crash as the reason. Crashes are
/// counted in the cache folder's ``PluginHealthStore`` as plugins' are (key `mcp-server:NAME`, the command's
/// file identity), so they add up across processes and a broken server stays broken until its program
/// changes (a fixed install) or the user runs `skillhost enable NAME`. ``close()`` kills it (the host's
/// shutdown does, for every session).
public final class MCPServerSession: Sendable {
    /// The revision the client speaks through `initialize`.
    public static let protocolVersion = "2025-11-25"
    /// The stateless revision, used when the server's `server/discover` lists it.
    public static let statelessVersion = "2026-07-28"
    /// How long starting and `initialize` may take.
    public static let startTimeout: Double = 30
    /// How long `server/discover` may take before the client falls back to `initialize` (a server that does
    /// not know it should answer an error at once; one that ignores it costs this much once).
    public static let discoverTimeout: Double = 5
    /// The error code of a request in a revision the server does not speak (it names those it does).
    static let unsupportedVersionCode: Int64 = -32022
    /// The `_meta` keys of the stateless revision.
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let clientInfoKey = "io.modelcontextprotocol/clientInfo"
    static let clientInfo: JSONValue = ["name": "skillhost", "version": "1"]
    /// What every request of the stateless revision carries in `_meta`.
    static let statelessMeta: JSONObject = [versionKey: .string(statelessVersion), capabilitiesKey: [:], clientInfoKey: clientInfo]

    private struct State {
        var connection: MCPClientConnection?
        var starting: Task<MCPClientConnection, any Error>?
        var tools: [JSONValue]?
        var crashes = 0
        var lastCrash: HostError?
        var lastEnd = 0.0
        var serverInfo: JSONValue = .null
        var instructions: String?
        var revision: String?
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
        health = Self.crashFile(of: entry).map { _ in PluginHealthStore(cacheDirectory: launcher.paths.cache) }
        if let health, let file = Self.crashFile(of: entry), let record = health.record(pluginID: Self.healthKey(entry.name), path: file) {
            state.withLock { state in
                state.crashes = record.consecutiveCrashes
                state.lastCrash = HostError(.pluginCrashed, record.lastCrash, pluginID: entry.name)
            }
        }
    }

    /// The crash history across processes (stdio servers: an HTTP server does not crash here).
    private let health: PluginHealthStore?

    /// The key of `name`'s crash history in ``PluginHealthStore`` (a plugin id cannot hold ':').
    public static func healthKey(_ name: String) -> String { "mcp-server:" + Identifier.normalize(name) }

    /// The file whose identity the crash history is tied to: a stdio server's command.
    private static func crashFile(of entry: MCPServerEntry) -> String? {
        if case .stdio(let command, _) = entry.transport { return command }
        return nil
    }

    /// Whether it crashed too often in a row to be started again; the reason when so.
    public var brokenReason: String? {
        state.withLock { state in
            guard state.crashes >= crashPolicy.maximumConsecutiveCrashes else { return nil }
            return "MCP server \(entry.name) is broken after \(state.crashes) crashes in a row (the last: \(state.lastCrash?.message ?? "?")); fix it, then run 'skillhost enable \(entry.name)'"
        }
    }

    /// Counts a crash here and in the crash history.
    private func countCrash(_ error: HostError) {
        state.withLock { state in
            state.crashes += 1
            state.lastCrash = error
            state.lastEnd = Posix.monotonicSeconds()
            state.tools = nil
        }
        if let health, let file = Self.crashFile(of: entry) {
            _ = try? health.recordCrash(pluginID: Self.healthKey(entry.name), path: file, message: error.message, limit: crashPolicy.maximumConsecutiveCrashes)
        }
    }

    /// The server's `serverInfo` (after the first start).
    public var serverInfo: JSONValue { state.withLock { $0.serverInfo } }

    /// The revision settled with the server (after the first start): 2026-07-28 (stateless, through
    /// `server/discover`) or the one `initialize` agreed on.
    public var revision: String? { state.withLock { $0.revision } }

    /// The cached `tools/list`, nil when it must be asked for (``tools()``).
    public var cachedTools: [JSONValue]? { state.withLock { $0.tools } }

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
        let hadCrashes = state.withLock { state in
            defer { state.crashes = 0 }
            return state.crashes > 0
        }
        if hadCrashes { try? health?.clear(pluginID: Self.healthKey(entry.name)) }
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
        // Running (most calls): no task to wait for.
        if let running = state.withLock({ $0.connection }), !running.hasEnded { return running }
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
            let (result, revision) = try await handshake(connection)
            state.withLock { state in
                state.connection = connection
                state.starting = nil
                state.serverInfo = result["serverInfo"] ?? .null
                state.instructions = result["instructions"]?.stringValue
                state.revision = revision
                state.capabilities = result["capabilities"] ?? .null
            }
            // A server that may change its tools: over HTTP its notice comes on the session's `GET` stream, or
            // (stateless) on a `subscriptions/listen` stream; over stdio a session's comes on stdout.
            if result["capabilities"]?["tools"]?["listChanged"] == .bool(true), connection.isHTTP {
                if revision == Self.statelessVersion { subscribe(connection) } else { connection.listenForServerMessages() }
            }
            return connection
        } catch {
            connection.close()
            // A server that fails its start crashed; an HTTP server that cannot be reached (or refuses) did not.
            let crashed = !connection.isHTTP
            state.withLock { $0.starting = nil }
            if crashed { countCrash(error) }
            var error = error
            if crashed { error.message = "MCP server \(entry.name) did not start: " + error.message }
            throw error
        }
    }

    /// `server/discover`, and the stateless revision when the server lists it; otherwise `initialize`. A
    /// server that does not know `server/discover` (an error answer, an HTTP 400/404/405, or silence for
    /// ``discoverTimeout``) is initialized.
    private func handshake(_ connection: MCPClientConnection) async throws(HostError) -> (JSONValue, String) {
        // The probe is a request of the stateless revision itself (its `_meta` and, over HTTP, its headers).
        connection.settle(version: Self.statelessVersion, stateless: true, meta: Self.statelessMeta)
        do {
            let result = try await connection.request("server/discover", params: [:], timeout: Self.discoverTimeout)
            let versions = result["supportedVersions"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if versions.contains(Self.statelessVersion) { return (result, Self.statelessVersion) }
        } catch where [.skillFailed, .invalidArguments, .notFound, .timeout].contains(error.kind) {
            // Not offered: initialize.
        }
        connection.settle(version: nil, stateless: false, meta: [:])
        let result: JSONValue
        do {
            result = try await connection.request("initialize", params: [
                "protocolVersion": .string(Self.protocolVersion),
                "capabilities": [:],
                "clientInfo": Self.clientInfo,
            ], timeout: Self.startTimeout)
        } catch where error.details?["code"]?.intValue == Self.unsupportedVersionCode {
            // The probe settled the connection on the stateless revision although `server/discover` itself was
            // not answered (the Python SDK's server without a discover handler does so): it speaks 2026-07-28.
            connection.settle(version: Self.statelessVersion, stateless: true, meta: Self.statelessMeta)
            return (.null, Self.statelessVersion)
        }
        let version = result["protocolVersion"]?.stringValue ?? Self.protocolVersion
        connection.settle(version: version, stateless: false, meta: [:])
        connection.notify("notifications/initialized")
        return (result, version)
    }

    /// How long one `subscriptions/listen` request stays open before it is sent again.
    static let listenTimeout: Double = 300

    /// The stateless revision's way to hear of changed tools (SEP-2575): a `subscriptions/listen` request for
    /// `toolsListChanged`, whose answer is a stream of notifications (they reach ``dropTools()`` as any
    /// other). Sent again when it ends (at once after ``listenTimeout``, else after a back-off doubling from
    /// 1 s to 60 s); not after the server refused it (an error answer) or the connection was closed or ended.
    private func subscribe(_ connection: MCPClientConnection) {
        Task { [weak connection] in
            var delay = 1.0
            while let connection, !connection.hasEnded, !connection.wasClosed {
                do throws(HostError) {
                    _ = try await connection.request(
                        "subscriptions/listen", params: ["notifications": ["toolsListChanged": true]], timeout: Self.listenTimeout)
                } catch where [.skillFailed, .invalidArguments, .notFound, .denied].contains(error.kind) {
                    return
                } catch where error.kind == .timeout {
                    delay = 1
                    continue
                } catch {}
                do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { return }
                delay = min(delay * 2, 60)
            }
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
        }
        guard !connection.wasClosed, !connection.isHTTP else { return }
        countCrash(error)
    }
}
