import Foundation
import SkillHostCore
import SkillJSON
import Synchronization

/// A ``SkillBackend`` that adds the tools of the registry's MCP servers (`mcp_servers`, issue #35,
/// docs/mcp-sources.md) to another backend: each tool is the skill `NAME.tool`, offered to every front end
/// (`call`, `chat`, `skillhost mcp`) through the one ``ToolCaller`` path — recorded, approved and timed like any
/// call. Servers are started on first use, confined (``MCPServerLauncher``), and kept for the life of the
/// backend (``MCPServerSession``); ``shutdown()`` kills them. Every other call goes to the base backend.
public final class MCPSourceBackend: SkillBackend {
    /// The backend for every other tool.
    public let base: any SkillBackend
    /// The host whose registry names the servers.
    public let host: SkillHost
    /// Starts the servers.
    public let launcher: MCPServerLauncher
    private let validator = ArgumentValidator()
    /// `rate_limit_per_minute` of the servers' tools, counted in the window plugins' skills share
    /// (``RateLimitWindowFile`` in the cache folder: separate processes count together).
    private let rateWindow: RateLimitWindowFile
    private let sessions = Mutex<[String: MCPServerSession]>([:])
    private let policyBlocks: Mutex<[String: String?]> = Mutex([:])
    /// The registry's servers as read in the current call batch, for a front end that says when input
    /// arrives (``inputArrived()``: `skillhost mcp`): a call of a native skill then pays no look at the
    /// registry. Without batches they are looked at on every call (the registry is read again only when
    /// its file changed).
    private let batch = Mutex<(batched: Bool, servers: [MCPServerEntry]?)>((false, nil))

    /// The MCP servers' tools on top of `base`; servers start through `launcher`.
    public init(base: any SkillBackend, host: SkillHost, launcher: MCPServerLauncher) {
        self.base = base
        self.host = host
        self.launcher = launcher
        rateWindow = RateLimitWindowFile(cacheDirectory: host.paths.cache)
    }

    /// A server's tools as the host offers them, and its tools that cannot be skills (with why); starts the
    /// server when it is not running. Disabled tools are included (their skill says so).
    public func listing(of entry: MCPServerEntry) async throws(HostError) -> (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid]) {
        if let known = try knownListing(of: entry) { return known }
        let session = session(for: entry)
        return converted(try await session.tools(), of: entry, session: session)
    }

    /// ``listing(of:)`` when the server's session has its tools at hand (nil: they must be asked for).
    private func knownListing(of entry: MCPServerEntry) throws(HostError) -> (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid])? {
        if let block = policyBlock(entry.name) { throw HostError(.denied, block, pluginID: entry.name) }
        let session = session(for: entry)
        return session.cachedTools.map { converted($0, of: entry, session: session) }
    }

    /// A listing as skills, converted once per listing of a session (every call that does not repeat the last
    /// one looks its tool up in it).
    private let listings = Mutex<[String: Converted]>([:])

    private struct Converted {
        var session: ObjectIdentifier
        var entry: MCPServerEntry
        /// The session's cached array (kept, so its storage is not reused while it is compared by address).
        var listed: [JSONValue]
        var listing: (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid])
    }

    private func converted(_ listed: [JSONValue], of entry: MCPServerEntry, session: MCPServerSession) -> (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid]) {
        let known = listings.withLock { listings -> (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid])? in
            guard let known = listings[entry.name], known.session == ObjectIdentifier(session), Self.sameStorage(known.listed, listed),
                known.entry == entry
            else { return nil }
            return known.listing
        }
        if let known { return known }
        let listing = MCPRemoteTool.tools(from: listed, server: entry)
        listings.withLock { $0[entry.name] = Converted(session: ObjectIdentifier(session), entry: entry, listed: listed, listing: listing) }
        return listing
    }

    /// Whether two arrays are one (the same storage: the session hands out its cached array until it changes,
    /// the host its servers' list until the registry changes).
    private static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    /// Called when a server said its tools changed (`notifications/tools/list_changed`), on the connection's
    /// thread or a task: a front end that serves the tools lists them again from a thread of its own
    /// (``MCPChangeWatcher/poke()``). Set it before the first call.
    public let toolsChanged = Mutex<(@Sendable () -> Void)?>(nil)

    /// The session of `entry`'s server (made, or made again when its launch members changed).
    public func session(for entry: MCPServerEntry) -> MCPServerSession {
        let (session, stale): (MCPServerSession, MCPServerSession?) = sessions.withLock { sessions in
            if let existing = sessions[entry.name], Self.sameLaunch(existing.entry, entry) { return (existing, nil) }
            let made = MCPServerSession(entry: entry, launcher: launcher)
            made.toolsChanged.withLock { $0 = { [weak self] in self?.toolsChanged.withLock { $0 }?() } }
            let old = sessions[entry.name]
            sessions[entry.name] = made
            return (made, old)
        }
        stale?.close()
        return session
    }

    /// Kills every server this backend started.
    public func shutdown() {
        let all = sessions.withLock { sessions in
            defer { sessions = [:] }
            return Array(sessions.values)
        }
        for session in all { session.close() }
    }

    deinit { shutdown() }

    @available(*, noasync, message: "use 'await listTools()'")
    public func tools() throws(HostError) -> [SkillTool] {
        var tools = try base.tools()
        for entry in try host.mcpServers() where entry.enabled && policyBlock(entry.name) == nil {
            // A server that cannot start offers nothing; its reason shows in 'list' and on a call. Only a
            // listing not at hand is waited for.
            let listing = (try? knownListing(of: entry)) ?? (try? Self.wait { () async throws(HostError) in try await self.listing(of: entry) })
            tools += Self.offered(listing)
        }
        return tools
    }

    public nonisolated(nonsending) func listTools() async throws(HostError) -> [SkillTool] {
        var tools = try await base.listTools()
        for entry in try host.mcpServers() where entry.enabled && policyBlock(entry.name) == nil {
            // As in ``tools()``.
            tools += Self.offered(try? await listing(of: entry))
        }
        return tools
    }

    /// The enabled tools of a server's listing (none when it could not be had).
    private static func offered(_ listing: (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid])?) -> [SkillTool] {
        (listing?.tools ?? []).filter(\.skill.enabled).map { SkillTool($0.skill) }
    }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        // Most calls are of native skills and no server is configured: nothing to normalize or compare.
        let servers = try currentServers()
        guard !servers.isEmpty else { return try base.prepare(skillID: skillID, arguments: arguments) }
        if let last = resolved(skillID, among: servers) {
            try check(last.tool.skill, of: last.entry)
            return try admitted(arguments, for: last.tool, of: last.entry)
        }
        let id = Identifier.normalize(skillID)
        guard let entry = Self.server(of: id, among: servers) else { return try base.prepare(skillID: skillID, arguments: arguments) }
        // The listing at hand (most calls) is looked at here; only one to fetch waits for the server.
        let tool: MCPRemoteTool
        if let known = try knownListing(of: entry) {
            tool = try Self.pick(id, from: known, of: entry)
        } else {
            tool = try Self.wait { () async throws(HostError) in try await self.tool(id, of: entry) }
        }
        remember(skillID, among: servers, entry: entry, tool: tool)
        try check(tool.skill, of: entry)
        prepared.withLock { $0[tool.skill.id] = tool }
        return try admitted(arguments, for: tool, of: entry)
    }

    /// The call of `tool` with `arguments` once the rate limit lets it in and the arguments are valid.
    private func admitted(_ arguments: JSONValue, for tool: MCPRemoteTool, of entry: MCPServerEntry) throws(HostError) -> PreparedCall {
        do {
            try rateWindow.admit(skillID: tool.skill.id, limitPerMinute: tool.skill.rateLimitPerMinute)
        } catch {
            var error = error
            error.pluginID = entry.name
            throw error
        }
        try validator.validate(arguments, for: tool.skill)
        return PreparedCall(skill: tool.skill, arguments: arguments)
    }

    /// The tool each skill id was last prepared as: its call runs that tool (the one its arguments were
    /// checked against) without looking the listing up again.
    private let prepared = Mutex<[String: MCPRemoteTool]>([:])

    /// The last call's server and tool, and what they were found in: a call of the same id (as given, or
    /// as prepared) finds them again with a few comparisons while the registry's servers and the server's
    /// listing are the very same arrays (both are replaced, never changed in place, when they change), and
    /// while its session is the one that listed them. A client calls one tool many times in a row.
    /// (A class: a look-up hands out one reference, not copies of the entry and the tool.)
    private final class Resolved: Sendable {
        let given: String
        let servers: [MCPServerEntry]
        let session: MCPServerSession
        let listed: [JSONValue]
        let entry: MCPServerEntry
        let tool: MCPRemoteTool

        init(given: String, servers: [MCPServerEntry], session: MCPServerSession, listed: [JSONValue], entry: MCPServerEntry, tool: MCPRemoteTool) {
            self.given = given
            self.servers = servers
            self.session = session
            self.listed = listed
            self.entry = entry
            self.tool = tool
        }
    }
    private let last = Mutex<Resolved?>(nil)

    private func resolved(_ id: String, among servers: [MCPServerEntry]) -> Resolved? {
        guard let last = last.withLock({ $0 }), last.given == id || last.tool.skill.id == id, Self.sameStorage(last.servers, servers),
            let listed = last.session.cachedTools, Self.sameStorage(listed, last.listed),
            sessions.withLock({ $0[last.entry.name] === last.session })
        else { return nil }
        return last
    }

    private func remember(_ id: String, among servers: [MCPServerEntry], entry: MCPServerEntry, tool: MCPRemoteTool) {
        let session = sessions.withLock { $0[entry.name] }
        guard let session, let listed = session.cachedTools else { return }
        let made = Resolved(given: id, servers: servers, session: session, listed: listed, entry: entry, tool: tool)
        last.withLock { $0 = made }
    }

    /// The base's runner for a call of no MCP source (itself when its servers cannot be read now: its `run`
    /// says why).
    public func runner(for call: PreparedCall) -> any SkillBackend {
        guard let servers = try? currentServers(), Self.server(of: call.skill.id, among: servers) == nil else { return self }
        return base.runner(for: call)
    }

    public nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        let servers = try currentServers()
        // Most calls: the tool its prepare just resolved, on the session that listed it.
        if let last = resolved(call.skill.id, among: servers) {
            let result = try await last.session.call(tool: last.tool.remoteName, arguments: call.arguments, timeout: call.skill.timeout)
            return try Self.skillResult(result, of: call.skill.id, server: last.entry.name)
        }
        guard let entry = Self.server(of: call.skill.id, among: servers) else {
            return try await base.run(call, options: options)
        }
        let tool: MCPRemoteTool
        if let known = prepared.withLock({ $0[call.skill.id] }) {
            tool = known
        } else {
            tool = try await self.tool(call.skill.id, of: entry)
        }
        let result = try await session(for: entry).call(tool: tool.remoteName, arguments: call.arguments, timeout: call.skill.timeout)
        return try Self.skillResult(result, of: call.skill.id, server: entry.name)
    }

    public func callLimits() throws(HostError) -> [String: CallLimit] { try base.callLimits() }

    public func inputArrived() {
        batch.withLock { $0 = (true, nil) }
        base.inputArrived()
    }

    /// The tool with skill id `id` of `entry`'s server.
    public func tool(_ id: String, of entry: MCPServerEntry) async throws(HostError) -> MCPRemoteTool {
        try Self.pick(id, from: try await listing(of: entry), of: entry)
    }

    /// The tool with skill id `id` in a listing of `entry`'s server.
    private static func pick(
        _ id: String, from listing: (tools: [MCPRemoteTool], invalid: [MCPRemoteTool.Invalid]), of entry: MCPServerEntry
    ) throws(HostError) -> MCPRemoteTool {
        if let tool = listing.tools.first(where: { $0.skill.id == id }) { return tool }
        if let invalid = listing.invalid.first(where: { entry.name + "." + Identifier.normalize($0.remoteName) == id }) {
            throw HostError(.invalidPlugin, "MCP server \(entry.name)'s tool \"\(invalid.remoteName)\" \(invalid.reason)", skillID: id, pluginID: entry.name)
        }
        let names = listing.tools.map(\.skill.id)
        throw HostError(.notFound,
            "MCP server \(entry.name) has no tool \(id); \(NearestName.didYouMean(id, among: names))its tools: \(names.joined(separator: ", "))",
            skillID: id, pluginID: entry.name)
    }

    /// The MCP server whose tool `id` would be (its name and a dot, then one segment), nil for another id.
    private static func server(of id: String, among servers: [MCPServerEntry]) -> MCPServerEntry? {
        // The name is one segment, so the server's is all before the last dot (compared as bytes: no string
        // is built; a call that does not repeat the last one runs this in prepare, run and runner).
        let bytes = id.utf8
        guard !servers.isEmpty, let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let server = bytes[..<dot]
        guard let entry = servers.first(where: { $0.name.utf8.elementsEqual(server) }),
              Identifier.isValidSegment(id[id.index(after: dot)...]) else { return nil }
        return entry
    }

    /// The registry's servers: once per call batch when the front end has batches, else as the host reads them.
    private func currentServers() throws(HostError) -> [MCPServerEntry] {
        if let known = batch.withLock({ $0.batched ? $0.servers : nil }) { return known }
        let servers = try host.mcpServers()
        batch.withLock { if $0.batched { $0.servers = servers } }
        return servers
    }

    /// What needs nobody: the server and the tool enabled, the registry's `deny`.
    private func check(_ skill: SkillDescription, of entry: MCPServerEntry) throws(HostError) {
        guard entry.enabled else {
            throw HostError(.disabled, "MCP server \(entry.name) is disabled; run 'skillhost enable \(entry.name)'", skillID: skill.id, pluginID: entry.name)
        }
        guard skill.enabled else {
            throw HostError(.disabled, "skill \(skill.id) is disabled; run 'skillhost enable \(skill.id)'", skillID: skill.id, pluginID: entry.name)
        }
        if skill.approval == .deny {
            throw HostError(.denied,
                "skill \(skill.id) is denied by the registry (\(Registry.mcpToolSettingPath(server: entry.name, skillID: skill.id, key: "approval")) is \"deny\"); nothing was run",
                skillID: skill.id, pluginID: entry.name)
        }
    }

    private func policyBlock(_ name: String) -> String? {
        if let known = policyBlocks.withLock({ $0[name] }) { return known }
        let block = host.mcpPolicyBlock(name)
        policyBlocks.withLock { $0[name] = .some(block) }
        return block
    }

    /// A `tools/call` result as a skill's result: `isError` is a failure with the server's text;
    /// `structuredContent` (an object) is the result; otherwise the text of its content (and the content
    /// itself when it holds more than text).
    static func skillResult(_ result: JSONValue, of skillID: String, server: String) throws(HostError) -> JSONValue {
        let members = result.objectValue ?? JSONObject()
        let content = members["content"]?.arrayValue ?? []
        // Most answers are one text item: its text as it is, nothing joined.
        let text = content.count == 1 && content[0]["type"]?.stringValue == "text"
            ? content[0]["text"]?.stringValue ?? ""
            : content.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }.joined(separator: "\n")
        if members["isError"]?.boolValue == true {
            throw HostError(.skillFailed,
                "\(skillID) failed: \(TerminalText.sanitized(text.isEmpty ? "the server gave no message" : String(text.prefix(2000))))",
                skillID: skillID, pluginID: server)
        }
        if let structured = members["structuredContent"], case .object = structured { return structured }
        var object: JSONObject = ["text": .string(text)]
        if content.contains(where: { $0["type"]?.stringValue != "text" }) { object["content"] = .array(content) }
        return .object(object)
    }

    static func sameLaunch(_ a: MCPServerEntry, _ b: MCPServerEntry) -> Bool {
        a.transport == b.transport && a.environment == b.environment && a.files == b.files && a.network == b.network
            && a.processes == b.processes
    }

    /// Runs `body` on the concurrency pool and blocks this thread until it ends: the one bridge from a
    /// synchronous caller to the MCP servers' async work. Only for threads the caller owns (the main thread
    /// of a command, a server's connection threads, ``BlockingThread``), never from async code: blocking a
    /// pool thread while `body` needs one deadlocks once the pool's threads all wait (it has one per core).
    /// Async code awaits the async form instead (``SkillBackend/listTools()``, ``listing(of:)``).
    @available(*, noasync, message: "await the async form: blocking a thread of the concurrency pool here can deadlock")
    public static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws(HostError) -> T) throws(HostError) -> T {
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<T, HostError>?>(nil)
        Task.detached {
            let result: Result<T, HostError>
            do throws(HostError) { result = .success(try await body()) } catch { result = .failure(error) }
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }
}
