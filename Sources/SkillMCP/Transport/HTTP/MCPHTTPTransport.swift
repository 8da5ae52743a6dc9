import Foundation
import SkillHTTP
import SkillHostCore
import SkillJSON
import SkillPosix
import Synchronization

/// MCP's Streamable HTTP transport (docs/mcp.md, "Over HTTP"), on ``HTTPServer``: one endpoint (`/mcp`)
/// that takes a JSON-RPC message per POST.
///
/// - A request of the 2026-07-28 revision (its `_meta` names the version) is answered by the shared
///   stateless server, any replica alike; its `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers
///   must match the body (else 400, -32020).
/// - A client of an earlier revision `initialize`s and gets an `Mcp-Session-Id`; its later requests name
///   it (a session lives in one process: behind a load balancer, route on that header).
/// - Answers are `application/json`, or `text/event-stream` when the client accepts only that, or asked
///   for progress, or opened `subscriptions/listen` (whose stream stays open, with keep-alive comments).
///   Closing the stream cancels the request. Notifications get 202.
/// - Every request needs a bearer token (``MCPTokenVerifier``; 401 with `WWW-Authenticate` naming the
///   Protected Resource Metadata, RFC 9728, served at `/.well-known/oauth-protected-resource/mcp`); a
///   `read` token cannot call a `write` skill (403 `insufficient_scope`); a browser `Origin` other than
///   the server's own or an allowed one gets 403; a token has at most
///   ``MCPHTTPConfiguration/maximumRequestsPerToken`` requests in flight (429).
public final class MCPHTTPTransport: Sendable {
    /// Makes the server of a new `initialize` session.
    public typealias SessionFactory = @Sendable () -> MCPServer

    private let configuration: MCPHTTPConfiguration
    private let stateless: MCPServer
    private let makeSession: SessionFactory
    private let tokens: MCPTokenVerifier
    private let log: MCPServer.Sink
    private let scopes = Atomic<UInt64>(1)
    private let perToken = Mutex<[String: Int]>([:])
    private let sessions: MCPHTTPSessions
    private let stopping = Atomic<Bool>(false)

    /// A transport whose stateless requests go to `stateless` and whose `initialize` sessions each get a
    /// server from `makeSession`.
    public init(
        configuration: MCPHTTPConfiguration, stateless: MCPServer, makeSession: @escaping SessionFactory, tokens: MCPTokenVerifier,
        log: @escaping MCPServer.Sink
    ) {
        self.configuration = configuration
        self.stateless = stateless
        self.makeSession = makeSession
        self.tokens = tokens
        self.log = log
        sessions = MCPHTTPSessions(maximum: configuration.maximumSessions)
    }

    /// Ends open `subscriptions/listen` streams (the server is stopping).
    public func stop() { stopping.store(true, ordering: .relaxed) }

    /// Every server of this transport (the stateless one and the sessions'), for change notifications.
    public var servers: [MCPServer] { [stateless] + sessions.servers }

    /// Takes one HTTP request (``HTTPServer``'s handler, on its loop's thread): refusals and quick answers at
    /// once; a call's answer when the call ends (on the thread that ends it: the call loop's, with
    /// ``MCPCallLoop``); a stream on a thread of its own.
    public func handle(_ exchange: HTTPExchange) {
        let started = Posix.monotonicNanoseconds()
        var note = Note()
        if let status = answer(exchange, note: &note, started: started) { report(exchange.request, note: note, status: status, started: started) }
    }

    /// The `--verbose` line of an answered request.
    func report(_ request: HTTPServerRequest, note: Note, status: Int, started: UInt64) {
        guard configuration.verbose else { return }
        let milliseconds = (Double(Posix.monotonicNanoseconds() &- started) / 1e5).rounded() / 10
        var line = "mcp-http: \(request.peer) \(request.method) \(request.path)"
        if let method = note.method { line += " \(method)" }
        if let name = note.name { line += " \(name)" }
        line += " \(status)"
        if let outcome = note.outcome { line += " \(outcome)" }
        line += " \(milliseconds) ms"
        if let token = note.token { line += " token=\(token)" }
        log(line)
    }

    /// What a request was, for its `--verbose` line.
    struct Note {
        var method: String?
        var name: String?
        var outcome: String?
        var token: String?
    }

    /// Answers at once (the status), or later (nil: the answer reports itself).
    private func answer(_ exchange: HTTPExchange, note: inout Note, started: UInt64) -> Int? {
        let request = exchange.request
        let path = request.path
        if path == "/.well-known/oauth-protected-resource" || path == "/.well-known/oauth-protected-resource" + configuration.path {
            guard request.method == "GET" || request.method == "HEAD" else {
                return refuse(exchange, note: &note, 405, "the metadata is read with GET", fields: [("Allow", "GET")])
            }
            return send(exchange, .json(200, MCPProtectedResource(configuration: configuration).metadata(for: request).serializedBytes()))
        }
        guard path == configuration.path else {
            return refuse(exchange, note: &note, 404, "no such path: \(path.prefix(80)); the MCP endpoint is \(configuration.path)")
        }
        // DNS rebinding: a browser page of another origin must not reach a local server.
        if let origin = request.fields["origin"], !originAllowed(origin, host: request.fields["host"]) {
            return refuse(exchange, note: &note, 403, "Origin \(origin.prefix(80)) is not allowed; start the server with --allow-origin \(origin.prefix(80)) to allow it", jsonRPC: true)
        }
        let principal: MCPPrincipal
        switch tokens.principal(authorization: request.fields["authorization"]) {
        case .success(let found): principal = found
        case .failure(let refusal):
            var challenge = "Bearer realm=\"skillhost\", resource_metadata=\"\(MCPProtectedResource(configuration: configuration).metadataURL(for: request))\""
            if let error = refusal.error { challenge += ", error=\"\(error)\"" }
            return refuse(exchange, note: &note, 401, refusal.message, fields: [("WWW-Authenticate", challenge)], jsonRPC: true)
        }
        note.token = principal.name
        switch request.method {
        case "POST": break
        case "DELETE":
            guard let id = request.fields["mcp-session-id"] else {
                return refuse(exchange, note: &note, 405, "DELETE ends a session; send its Mcp-Session-Id (stateless requests have none)", fields: [("Allow", "POST, DELETE")])
            }
            guard sessions.end(id, principal: principal.name) else { return refuse(exchange, note: &note, 404, "no session \(id.prefix(80)); it ended already") }
            return send(exchange, HTTPServerResponse(status: 204))
        default:
            // No standalone GET stream: list changes come through subscriptions/listen.
            return refuse(exchange, note: &note, 405, "\(request.method) is not served at \(configuration.path); POST one JSON-RPC message (list changes: POST subscriptions/listen)",
                          fields: [("Allow", "POST, DELETE")])
        }
        let type = request.fields["content-type"] ?? ""
        guard FieldList.hasPrefix(type, ignoringCase: "application/json") else {
            return refuse(exchange, note: &note, 415, "Content-Type must be application/json, not '\(type.lowercased().prefix(60))'", jsonRPC: true)
        }
        let accept = request.fields["accept"]
        let acceptsJSON = accept == nil || FieldList.accepts(accept, "application/json")
        let acceptsStream = accept == nil || FieldList.accepts(accept, "text/event-stream")
        guard acceptsJSON || acceptsStream else {
            return refuse(exchange, note: &note, 406, "Accept must list application/json and text/event-stream, not '\(accept?.prefix(60) ?? "")'", jsonRPC: true)
        }
        let message: MCPHTTPMessage
        do {
            message = try MCPHTTPMessage(body: request.body)
        } catch {
            return sendError(exchange, id: nil, error)
        }
        let method = message.method
        let id = message.id
        note.method = method
        if method == "tools/call" || method == "resources/read" { note.name = message.name ?? message.params?["uri"]?.stringValue }
        let meta = message.meta
        let isModern = meta?[MCPRequestEnvelope.versionKey] != nil
        if isModern, let id, let method, let mismatch = MCPHTTPRoutingHeaders.mismatch(request, method: method, message: message) {
            return sendError(exchange, id: id, JSONRPCError(code: MCPRequestEnvelope.headerMismatchCode, mismatch))
        }
        if method == "tools/call", id != nil, let name = message.name,
            let permission = (isModern ? stateless : sessionServer(request, principal))?.permission(ofTool: name), !principal.allows(permission)
        {
            let text = "the token \(principal.name) has scope \(principal.scope.rawValue) and tool \(name) needs \(permission.rawValue); use a token made with 'skillhost token create NAME --scope write'"
            let challenge = "Bearer realm=\"skillhost\", error=\"insufficient_scope\", scope=\"write\", resource_metadata=\"\(MCPProtectedResource(configuration: configuration).metadataURL(for: request))\""
            note.outcome = "insufficient_scope"
            return sendError(exchange, id: id, JSONRPCError(code: JSONRPCError.invalidRequestCode, text), status: 403, fields: [("WWW-Authenticate", challenge)])
        }
        // The server for this message: stateless, a session's, or a new session for `initialize`.
        let server: MCPServer
        let newSession: String?
        if isModern || (request.fields["mcp-session-id"] == nil && (method == "server/discover" || method == "ping")) {
            server = stateless
            newSession = nil
        } else if method == "initialize", request.fields["mcp-session-id"] == nil {
            let sessionID = MCPHTTPSessions.newID()
            server = makeSession()
            sessions.open(sessionID, server: server, principal: principal.name)
            newSession = sessionID
        } else if let sessionID = request.fields["mcp-session-id"] {
            guard let found = sessionServer(request, principal) else {
                return sendError(exchange, id: id, JSONRPCError(code: JSONRPCError.invalidRequestCode, "session \(sessionID.prefix(80)) is not open here (it ended, or this replica never had it); initialize again"), status: 404)
            }
            server = found
            newSession = nil
        } else {
            return sendError(exchange, id: id, JSONRPCError(
                code: JSONRPCError.invalidRequestCode,
                "\(method ?? "the message") needs params._meta with \(MCPRequestEnvelope.versionKey) (revision \(MCPProtocolVersion.discoverVersion)), or an Mcp-Session-Id from initialize"))
        }
        guard id != nil, method != nil else {
            // A notification (or a response): accepted. The stateless revision defines none to act on.
            if !isModern { message.deliver(to: server, context: MCPRequestContext(scope: 0, principal: principal)) }
            return send(exchange, HTTPServerResponse(status: 202))
        }
        guard enter(principal.name) else {
            note.outcome = "limit"
            return refuse(exchange, note: &note, 429, "the token \(principal.name) has \(configuration.maximumRequestsPerToken) requests in flight (its limit); retry when one is answered",
                          fields: [("Retry-After", "1")], jsonRPC: true)
        }
        let streams = !acceptsJSON || (acceptsStream && (method == "subscriptions/listen" || meta?["progressToken"] != nil))
        let scope = scopes.wrappingAdd(1, ordering: .relaxed).oldValue
        let fields: [(String, String)] = newSession.map { [("Mcp-Session-Id", $0)] } ?? []
        guard let id else { return 500 }  // (a request has one: notifications were answered above)
        if streams {
            // A stream waits for its events on a thread of its own (progress, subscriptions/listen, a client
            // that takes only events: few at once; everything else is answered without a thread).
            let reply = MCPHTTPReply()
            message.deliver(to: server, context: MCPRequestContext(respond: reply.respond, notify: reply.notify, scope: scope, principal: principal))
            let noted = note
            let thread = Thread { [self] in
                var note = noted
                let status = stream(exchange, reply: reply, id: id, scope: scope, server: server, fields: fields, acceptsJSON: acceptsJSON, note: &note)
                ended(principal: principal.name, newSession: newSession, status: status)
                report(exchange.request, note: note, status: status, started: started)
            }
            thread.name = "skillhost-mcp-stream"
            thread.start()
            return nil
        }
        // One JSON answer, written when the call ends; a client that hangs up first cancels the request.
        let answer = MCPHTTPAnswer(note: note)
        exchange.onPeerGone { [self] in
            guard let note = answer.end(outcome: "abandoned") else { return }
            server.abandon(requestID: id, scope: scope)
            ended(principal: principal.name, newSession: newSession, status: 499)
            report(exchange.request, note: note, status: 499, started: started)
        }
        let verbose = configuration.verbose
        let respond: MCPServer.Sink = { [self] response in
            guard let note = answer.end(outcome: verbose ? MCPServer.outcome(of: response) : nil) else { return }
            let status = MCPHTTPRoutingHeaders.status(of: response)
            exchange.respond(.json(status, Array(response.utf8), fields: HTTPFields(fields)))
            ended(principal: principal.name, newSession: newSession, status: status)
            report(exchange.request, note: note, status: status, started: started)
        }
        message.deliver(to: server, context: MCPRequestContext(respond: respond, notify: { _ in }, scope: scope, principal: principal))
        return nil
    }

    /// A request with its place among its token's requests in flight was answered (or abandoned).
    private func ended(principal: String, newSession: String?, status: Int) {
        leave(principal)
        if let newSession, status != 200 { sessions.forget(newSession) }
    }

    /// Sends notifications and then the response as Server-Sent Events; a `subscriptions/listen` stream stays
    /// open (keep-alive comments) until the client closes it or the server stops.
    private func stream(
        _ exchange: HTTPExchange, reply: MCPHTTPReply, id: JSONValue, scope: UInt64, server: MCPServer, fields: [(String, String)],
        acceptsJSON: Bool, note: inout Note
    ) -> Int {
        var head = HTTPFields(fields)
        head.append("Content-Type", "text/event-stream")
        head.append("Cache-Control", "no-cache")
        head.append("X-Accel-Buffering", "no")
        // An answer that comes at once (a quick call, a bad request) is one JSON body with its status, when
        // the client takes JSON: a stream only when there is something to stream.
        let first = reply.next(waitingUpTo: acceptsJSON ? 50 : 0)
        if acceptsJSON, first.notifications.isEmpty, let response = first.response {
            if configuration.verbose { note.outcome = MCPServer.outcome(of: response) }
            return send(exchange, .json(MCPHTTPRoutingHeaders.status(of: response), Array(response.utf8), fields: HTTPFields(fields)))
        }
        guard exchange.startStream(status: 200, fields: head) else {
            server.abandon(requestID: id, scope: scope)
            return 499
        }
        var pending = first
        let keepAlive = UInt64(max(1_000_000, configuration.keepAliveInterval / .nanoseconds(1)))
        var lastSent = Posix.monotonicNanoseconds()
        while true {
            for line in pending.notifications {
                guard exchange.send(Self.event(line)) else {
                    server.abandon(requestID: id, scope: scope)
                    return 499
                }
                lastSent = Posix.monotonicNanoseconds()
            }
            if let response = pending.response {
                if configuration.verbose { note.outcome = MCPServer.outcome(of: response) }
                exchange.send(Self.event(response))
                exchange.finish()
                return 200
            }
            if exchange.peerHungUp || stopping.load(ordering: .relaxed) {
                server.abandon(requestID: id, scope: scope)
                note.outcome = stopping.load(ordering: .relaxed) ? "server stopping" : "closed by the client"
                exchange.finish()
                exchange.closeAfterwards()
                return 200
            }
            if Posix.monotonicNanoseconds() &- lastSent >= keepAlive {
                guard exchange.send(Array(":\n\n".utf8)) else {
                    server.abandon(requestID: id, scope: scope)
                    return 499
                }
                lastSent = Posix.monotonicNanoseconds()
            }
            pending = reply.next(waitingUpTo: 200)
        }
    }

    private static func event(_ line: String) -> [UInt8] { Array("event: message\ndata: \(line)\n\n".utf8) }

    // MARK: - Parts

    private func originAllowed(_ origin: String, host: String?) -> Bool {
        if configuration.allowedOrigins.contains(origin) || configuration.allowedOrigins.contains("*") { return true }
        // The server's own origin (a page it serves itself).
        guard let host else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    private func enter(_ token: String) -> Bool {
        perToken.withLock { counts in
            let count = counts[token, default: 0]
            guard count < configuration.maximumRequestsPerToken else { return false }
            counts[token] = count + 1
            return true
        }
    }

    private func leave(_ token: String) {
        perToken.withLock { counts in
            let count = counts[token, default: 1] - 1
            counts[token] = count > 0 ? count : nil
        }
    }

    private func sessionServer(_ request: HTTPServerRequest, _ principal: MCPPrincipal) -> MCPServer? {
        guard let id = request.fields["mcp-session-id"] else { return nil }
        return sessions.server(id, principal: principal.name)
    }

    @discardableResult
    private func send(_ exchange: HTTPExchange, _ response: HTTPServerResponse) -> Int {
        exchange.respond(response)
        return response.status
    }

    /// A refusal: one line, as `text/plain`, or as a JSON-RPC error without id where an MCP client reads it.
    private func refuse(
        _ exchange: HTTPExchange, note: inout Note, _ status: Int, _ message: String, fields: [(String, String)] = [], jsonRPC: Bool = false
    ) -> Int {
        // One line in the log for every refusal: the request's own line with --verbose, this one without.
        note.outcome = message
        if !configuration.verbose { log("mcp-http: \(exchange.request.peer) \(exchange.request.method) \(exchange.request.path) \(status): \(message)") }
        if jsonRPC {
            let line = JSONRPCMessage.errorLine(id: nil, error: JSONRPCError(code: JSONRPCError.invalidRequestCode, message))
            return send(exchange, .json(status, Array(line.utf8), fields: HTTPFields(fields)))
        }
        return send(exchange, .text(status, message, fields: HTTPFields(fields)))
    }

    private func sendError(
        _ exchange: HTTPExchange, id: JSONValue?, _ error: JSONRPCError, status: Int? = nil, fields: [(String, String)] = []
    ) -> Int {
        let line = JSONRPCMessage.errorLine(id: id, error: error)
        return send(exchange, .json(status ?? MCPHTTPRoutingHeaders.status(of: line), Array(line.utf8), fields: HTTPFields(fields)))
    }
}
