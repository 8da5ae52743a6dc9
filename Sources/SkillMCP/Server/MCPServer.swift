import Dispatch
import Foundation
import SkillCalls
import SkillHostCore
import SkillJSON
import SkillPosix
import Synchronization

/// An MCP server over SkillHost's skills (spec 2025-11-25; docs/mcp.md), independent of the transport:
/// feed it one JSON-RPC line at a time with ``receive(_:)``; everything it says goes to `send`, one line
/// per message. Tests drive it directly with strings.
///
/// - Lifecycle: `initialize` (version negotiation), `notifications/initialized`, `ping`, and
///   `server/discover` of the 2026-07-28 revision (answered before and after `initialize`). Any other
///   request before `initialize` is answered with -32600, never left waiting.
/// - Requests other than `tools/call` are answered on the caller's thread, in order; ``receive(_:)`` may
///   block on file I/O, so call it from a thread you own (the stdio transport has one).
/// - `tools/call` runs as a task of its own (on `callExecutor` when given, else starting on the caller's
///   thread): answers come back out of order, at most `maximumCallsInFlight` at once; `notifications/cancelled` cancels one (no answer is sent then);
///   `notifications/progress` is sent while it runs past `progressInterval` when the call carried a
///   `progressToken`.
/// - ``refresh()`` (called by ``MCPChangeWatcher``) sends `notifications/tools/list_changed` and
///   `notifications/resources/list_changed` when the tools or the instruction skills changed.
public final class MCPServer: Sendable {
    /// Where the server's lines go (stdout for the stdio transport). Called from any thread, one line
    /// per call, without the newline.
    public typealias Sink = @Sendable (String) -> Void

    /// The configuration.
    public let configuration: MCPServerConfiguration
    /// Where `tools/call` goes: the tool-call layer every front end shares (its backend lists the tools, its
    /// approval is the server's policy, its recorder writes each call to the history).
    public let caller: ToolCaller
    var backend: any SkillBackend { caller.backend }
    let skills: SkillsExtension
    let pagination: MCPPagination
    let send: Sink
    let log: Sink
    /// This connection's session (its calls' session in the history, and the session skills are told).
    var sessionID: String { caller.sessionID }
    let state = Mutex(State())
    let places: MCPInFlightLimit
    let inFlight = DispatchGroup()
    let limiter = MCPCallLimiter()
    /// Where `tools/call` tasks run (the stdio transport's read loop), nil for the caller's thread first
    /// and the Swift pool after.
    let callExecutor: (any TaskExecutor)?
    /// Collects worker replies for the calls, on the loop that runs them (see ``CallReplyPoller``).
    let replyPoller: CallReplyPoller?
    /// Seals approval questions' `requestState` (``MCPRequestState``).
    let stateKey: [UInt8]
    /// What each call id starts with: the configured prefix or the session, and "-" (the call's number follows).
    let callIDStem: String

    enum Phase { case new, initialized, ready }

    /// A `tools/call` in flight, by its request id.
    enum Call {
        /// Its id is taken; its task is being started on the reading thread.
        case starting
        /// Its task, for `notifications/cancelled`.
        case running(Task<Void, Never>)
        /// Waiting in the limiter for a place (no task yet), as `ticket`.
        case queued(CallLimit, ticket: Int)
        /// Cancelled while its start was under way: its task is cancelled as soon as it is stored.
        case cancelling
    }

    /// A request id as the key of its call in flight: `1` and `"1"` are different ids; hashing one costs
    /// no serialization.
    struct CallKey: Hashable {
        enum ID: Hashable {
            case int(Int64)
            case string(String)
        }

        var id: ID
        /// The exchange's scope (``MCPRequestContext/scope``): HTTP clients all use small ids.
        var scope: UInt64

        /// The key of a valid request id (an integer or a string).
        init(_ id: JSONValue, scope: UInt64 = 0) {
            switch id {
            case .int(let number): self.id = .int(number)
            default: self.id = .string(id.stringValue ?? id.serialized())
            }
            self.scope = scope
        }
    }

    struct State {
        var phase = Phase.new
        var protocolVersion: String?
        var calls: [CallKey: Call] = [:]
        var nextCall = 0
        var catalog: MCPToolCatalog?
        var instructionSkills: [MCPInstructionSkill]?
        /// Who made the calls: the client's name from `initialize`.
        var origin = CallOrigin.mcp(client: nil)
        /// Open `subscriptions/listen` streams.
        var subscriptions: [CallKey: MCPSubscription] = [:]
    }

    /// A new connection's session id: `mcp-` and 8 hex digits.
    public static func newSessionID() -> String { "mcp-" + UUID().uuidString.prefix(8).lowercased() }

    /// A server whose calls go through `backend` with the configuration's approval policy, in a session of
    /// their own, recorded nowhere (tests; the CLI passes a ``ToolCaller`` with a recorder).
    public convenience init(
        configuration: MCPServerConfiguration, backend: any SkillBackend,
        skills: any InstructionSkillSource = EmptyInstructionSkillSource(),
        send: @escaping Sink, log: @escaping Sink = { _ in }, callExecutor: (any TaskExecutor)? = nil,
        replyPoller: CallReplyPoller? = nil
    ) {
        self.init(
            configuration: configuration,
            caller: ToolCaller(
                backend: backend, approval: configuration.approval, sessionID: Self.newSessionID(), forwardsCallIDs: true),
            skills: skills, send: send, log: log, callExecutor: callExecutor, replyPoller: replyPoller)
    }

    /// A server.
    /// - Parameters:
    ///   - caller: the tool-call layer over the native skills (``HostSkillBackend`` over the host), with
    ///     the server's approval policy and recorder; its call ids are the server's (unique per call).
    ///   - skills: the instruction skills of the Skills extension.
    ///   - send: receives every outgoing line.
    ///   - log: receives diagnostics (the CLI writes them to stderr).
    ///   - callExecutor: where `tools/call` tasks run: ``MCPStdioTransport/callExecutor`` (the read
    ///     loop's thread; the server then never blocks the thread that calls ``receive(_:)``, and the
    ///     caller stops reading while ``pausesInput`` says so). Nil: a call starts on the thread that
    ///     calls ``receive(_:)`` and continues on the Swift pool after its first wait; ``receive(_:)``
    ///     blocks while `maximumCallsInFlight` calls are in flight.
    ///   - replyPoller: polled by the loop that runs the calls (``MCPStdioTransport/replyPoller``): the
    ///     calls' workers then reply into it instead of being spun for. Ignored without `callExecutor`.
    public init(
        configuration: MCPServerConfiguration, caller: ToolCaller,
        skills: any InstructionSkillSource = EmptyInstructionSkillSource(),
        send: @escaping Sink, log: @escaping Sink = { _ in }, callExecutor: (any TaskExecutor)? = nil,
        replyPoller: CallReplyPoller? = nil
    ) {
        self.callExecutor = callExecutor
        // Only a loop that runs the calls polls for their replies: without one, nobody would.
        self.replyPoller = callExecutor == nil ? nil : replyPoller
        self.configuration = configuration
        self.caller = caller
        self.pagination = MCPPagination(pageSize: configuration.pageSize)
        self.skills = SkillsExtension(source: skills, pagination: pagination)
        self.send = send
        self.log = log
        self.places = MCPInFlightLimit(maximum: configuration.maximumCallsInFlight)
        var generator = SystemRandomNumberGenerator()
        self.stateKey = configuration.requestStateKey ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.callIDStem = (configuration.callIDPrefix ?? caller.sessionID) + "-"
    }

    /// `tools/call`s received and not yet answered (or cancelled).
    public var callsInFlight: Int { places.running }

    /// With a `callExecutor`: whether the caller of ``receive(_:)`` should stop reading input for now
    /// (from the moment `maximumCallsInFlight` calls are in flight until half of them are done).
    public var pausesInput: Bool { places.pausesInput() }

    /// Whether each request is logged in one line (`--verbose`).
    var verbose: Bool { configuration.verbose }

    /// One line per request with `--verbose`: method, tool, time taken, outcome.
    func report(_ method: String, name: String?, started: UInt64, outcome: String) {
        guard verbose else { return }
        let milliseconds = Double(Posix.monotonicNanoseconds() &- started) / 1e6
        let tool = name.map { " " + $0 } ?? ""
        log("mcp: \(method)\(tool) \(outcome) \((milliseconds * 10).rounded() / 10) ms")
    }

    /// The protocol version settled by `initialize`, nil before.
    public var protocolVersion: String? { state.withLock { $0.protocolVersion } }

    // MARK: - Receiving

    /// Handles one line of input (without its newline). Malformed lines are answered with -32700 or
    /// -32600 and the server keeps serving.
    public func receive(_ line: some Collection<UInt8>, context: MCPRequestContext = .connection) {
        var bytes = ArraySlice(line)
        let respond = context.respond ?? send
        // The common case first, without building the message's outer object (see JSONRPCToolsCall).
        if let call = JSONRPCToolsCall(line: bytes) {
            receive(call, context: context)
            return
        }
        while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(line: bytes)
        } catch {
            log("mcp: rejected a line: \(error.message)")
            respond(JSONRPCMessage.errorLine(id: error.data?["id"], error: error))
            return
        }
        receive(message, context: context)
    }

    /// Handles a `tools/call` request read by the shortcut (``JSONRPCToolsCall``): what ``receive(message:context:)``
    /// does with the same request, without its outer objects. Its params hold only name, arguments and
    /// `_meta`, so there is no approval answer in them.
    func receive(_ call: JSONRPCToolsCall, context: MCPRequestContext) {
        guard let meta = call.meta else {
            startCall(id: call.id, name: call.name, arguments: call.arguments, progressToken: nil, context: context, envelope: nil, params: nil)
            return
        }
        let envelope: MCPRequestEnvelope?
        do {
            envelope = try MCPRequestEnvelope(meta: meta)
        } catch {
            (context.respond ?? send)(JSONRPCMessage.errorLine(id: call.id, error: error))
            report("tools/call", name: nil, started: verbose ? Posix.monotonicNanoseconds() : 0, outcome: "error \(error.code)")
            return
        }
        startCall(
            id: call.id, name: call.name, arguments: call.arguments, progressToken: meta["progressToken"], context: context,
            envelope: envelope, params: nil)
    }

    /// Handles one message already parsed (the HTTP transport parses each body once).
    public func receive(message value: JSONValue, context: MCPRequestContext) {
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(value: value)
        } catch {
            (context.respond ?? send)(JSONRPCMessage.errorLine(id: error.data?["id"], error: error))
            return
        }
        receive(message, context: context)
    }

    private func receive(_ message: JSONRPCMessage, context: MCPRequestContext) {
        let respond = context.respond ?? send
        switch message {
        case .response:
            return  // this server sends no requests
        case .notification(let method, let params):
            notify(method, params, scope: context.scope)
        case .request(let id, let method, let params):
            let started = verbose ? Posix.monotonicNanoseconds() : 0
            let envelope: MCPRequestEnvelope?
            do {
                envelope = try MCPRequestEnvelope(params: params)
            } catch {
                respond(JSONRPCMessage.errorLine(id: id, error: error))
                report(method, name: nil, started: started, outcome: "error \(error.code)")
                return
            }
            if method == "tools/call" {
                startCall(id: id, params: params, context: context, envelope: envelope)
                return
            }
            if method == "subscriptions/listen" {
                listen(id: id, params: params, context: context, envelope: envelope)
                return
            }
            do {
                var result = try answer(method, params, envelope: envelope)
                if envelope != nil { result = statelessResult(result, method: method) }
                respond(JSONRPCMessage.responseLine(id: id, result: result))
                report(method, name: nil, started: started, outcome: "ok")
            } catch {
                respond(JSONRPCMessage.errorLine(id: id, error: error))
                report(method, name: nil, started: started, outcome: "error \(error.code)")
            }
        }
    }

    /// New input was read: the requests handed to ``receive(_:)`` from now on arrived before this call, so
    /// the host may look at its files (registry, plugins) once for all of them instead of once per call
    /// (``SkillBackend/inputArrived()``). The stdio transport calls it for every chunk it reads; a
    /// caller that never does gets a look per call.
    public func inputArrived() { backend.inputArrived() }

    /// Convenience for tests: one line as a string.
    public func receive(_ line: String) { receive(Array(line.utf8)) }

    /// Waits until every call in flight was answered (or cancelled); the transport calls it at the end of
    /// input before exiting.
    public func finish() async {
        await withCheckedContinuation { continuation in
            inFlight.notify(queue: .global()) { continuation.resume() }
        }
    }

    // MARK: - Requests answered in order

    private func answer(_ method: String, _ params: JSONValue?, envelope: MCPRequestEnvelope?) throws(JSONRPCError) -> JSONValue {
        switch method {
        case "initialize": return try initialize(params)
        case "ping": return .object([:])
        case "server/discover": return discover()
        default: break
        }
        // A request of the stateless revision carries what `initialize` would have settled.
        guard envelope != nil || state.withLock({ $0.phase != .new }) else {
            throw JSONRPCError(code: JSONRPCError.invalidRequestCode,
                               "\(method) before initialize; send initialize first (or server/discover, then initialize)")
        }
        switch method {
        case "tools/list":
            let (page, next) = try pagination.page(of: catalog().entries, list: "tools", params: params)
            var result: JSONObject = ["tools": .array(Array(page))]
            if let next { result["nextCursor"] = .string(next) }
            return .object(result)
        case "skills/list": return try skills.list(params)
        case "skills/get": return try skills.get(params)
        case "resources/list": return try skills.resourcesList(params)
        case "resources/read": return try skills.read(params)
        case "resources/directory/read": return try skills.directoryRead(params)
        case "resources/templates/list": return ["resourceTemplates": []]
        default:
            throw JSONRPCError(code: JSONRPCError.methodNotFoundCode,
                               "method \"\(method)\" is not served; this server serves tools/*, resources/*, skills/*, ping and server/discover")
        }
    }

    private func initialize(_ params: JSONValue?) throws(JSONRPCError) -> JSONValue {
        guard case .object(let object)? = params else {
            throw .invalidParams("initialize: params must be an object with protocolVersion, capabilities and clientInfo")
        }
        guard let requested = object["protocolVersion"]?.stringValue else {
            throw .invalidParams("initialize: params.protocolVersion is missing or not a string; send one of \(MCPProtocolVersion.handshakeVersions.joined(separator: ", "))")
        }
        let version = MCPProtocolVersion.negotiate(requested)
        try state.withLock { state throws(JSONRPCError) in
            guard state.phase == .new else {
                throw JSONRPCError(code: JSONRPCError.invalidRequestCode, "initialize was already received; start a new connection to initialize again")
            }
            state.phase = .initialized
            state.protocolVersion = version
        }
        let name = object["clientInfo"]?["name"]?.stringValue
        state.withLock { $0.origin = .mcp(client: name) }
        log("mcp: initialized by \(name ?? "an unnamed client"), protocol \(version) (asked for \(requested))")
        var result: JSONObject = [
            "protocolVersion": .string(version), "capabilities": capabilities, "serverInfo": serverInfo,
        ]
        if let instructions = configuration.instructions { result["instructions"] = .string(instructions) }
        return .object(result)
    }

    /// `server/discover` (2026-07-28): the versions this server speaks (the stateless one first, then the
    /// `initialize` revisions), its capabilities and identity.
    private func discover() -> JSONValue {
        var result: JSONObject = [
            "supportedVersions": .array(MCPProtocolVersion.supported.map(JSONValue.string)),
            "capabilities": capabilities, "serverInfo": serverInfo,
            "resultType": "complete", "ttlMs": .int(Int64(configuration.listTTLMilliseconds)), "cacheScope": "public",
            "_meta": ["io.modelcontextprotocol/serverInfo": serverInfo],
        ]
        if let instructions = configuration.instructions { result["instructions"] = .string(instructions) }
        return .object(result)
    }

    private var capabilities: JSONValue {
        [
            "tools": ["listChanged": true],
            "resources": ["listChanged": true],
            "extensions": [.init(stringLiteral: SkillsExtension.identifier): SkillsExtension.capability],
        ]
    }

    private var serverInfo: JSONValue {
        ["name": .string(configuration.name), "title": "SkillHost", "version": .string(configuration.version)]
    }

    // MARK: - Notifications

    private func notify(_ method: String, _ params: JSONValue?, scope: UInt64) {
        switch method {
        case "notifications/initialized":
            state.withLock { state in
                if state.phase == .initialized { state.phase = .ready }
            }
        case "notifications/cancelled":
            guard let requestID = params?["requestId"], JSONRPCMessage.isValidID(requestID) else { return }
            if cancelCall(CallKey(requestID, scope: scope)) {
                log("mcp: cancelling call \(requestID.serialized())\(params?["reason"]?.stringValue.map { ": " + $0 } ?? "")")
            }
        default:
            return  // other notifications need nothing from this server
        }
    }
}
