import Foundation
import SkillAgent
import SkillHTTP
import SkillHostCore
import SkillJSON
import SkillStore

/// The page and its JSON API, for a request ``WebAccess`` allowed. Requests that change something are
/// `POST` or `DELETE` with a JSON body (`Content-Type: application/json`, which a cross-site form cannot
/// send); every error is `{"error": "one line"}` with its status.
///
/// | route | does |
/// |---|---|
/// | `GET /`, `/app.js`, `/app.css` | the page |
/// | `GET /api/state` | the open session, its messages, whether a turn runs, the model |
/// | `GET /api/events` | server-sent events: the agent loop's events (`chat --json`'s shapes) and approvals |
/// | `POST /api/chat {"text"}` | sends a message (202; the turn runs in the background) |
/// | `POST /api/stop`, `POST /api/approve {"id","allow"}`, `POST /api/retry {"call_id"}` | Stop, Allow/Deny, Retry |
/// | `POST /api/open {"session": ID or null}` | continues a stored session, or starts a new chat |
/// | `GET /api/sessions`, `GET /api/sessions/ID`, `DELETE /api/sessions/ID` | the history |
/// | `GET /api/skills`, `GET /api/skills/ID`, `POST /api/skills/ID {"enabled"}` | the Skills tab |
/// | `POST /api/add-skill?name=F.zip` (the archive's bytes, `application/zip`) | adds an instruction skill, as `skillhost add` |
/// | `GET /api/files?session=ID&path=P` | a file a skill's script wrote in the session's workspace, as a download |
/// | `GET /api/debug` | what `skillhost debug --json` prints, for the open session (the Trace view) |
/// | `GET /api/settings`, `POST /api/settings {…}`, `POST /api/approval {"skill","approval"}` | the Settings tab |
struct WebRoutes: Sendable {
    let chat: WebChat

    func answer(_ exchange: HTTPExchange) {
        let request = exchange.request
        let path = request.path
        do {
            if request.method == "GET" || request.method == "HEAD" {
                if let asset = WebPage.asset(path) {
                    return respond(exchange, HTTPServerResponse(status: 200, fields: HTTPFields([("Content-Type", asset.type)]), body: asset.body))
                }
                if path == "/api/events" {
                    // The server's event loop answers every connection on one thread: a stream that waits for
                    // the chat's events holds a thread of its own, never the loop.
                    let thread = Thread { streamEvents(exchange) }
                    thread.name = "skillhost-ui-events"
                    thread.start()
                    return
                }
                if path == "/api/skills" || Self.suffix(path, after: "/api/skills/") != nil {
                    // Listing MCP servers may start them (up to their start timeout): never on the loop thread, and
                    // never on the concurrency pool either (the backends' synchronous members block their thread).
                    let thread = Thread { answerSkills(exchange, path) }
                    thread.name = "skillhost-ui-skills"
                    thread.start()
                    return
                }
                if path == "/api/files" { return respond(exchange, try WebFiles(stateDirectory: chat.setup.stateDirectory).answer(request)) }
                return respond(exchange, .json(200, try get(path).serialized().utf8.map { $0 }))
            }
            if request.method == "POST", path == "/api/add-skill" {
                let added = try WebSkills(chat.setup).add(request)
                return respond(exchange, .json(200, added.serialized().utf8.map { $0 }))
            }
            let body = try Self.body(request)
            if request.method == "POST", ["/api/chat", "/api/open", "/api/retry"].contains(path) {
                // These may list the tools, which may start MCP servers: on a thread of their own.
                let thread = Thread {
                    do {
                        let reply = try change(request.method, path, body)
                        respond(exchange, .json(reply.status, reply.body.serialized().utf8.map { $0 }))
                    } catch {
                        respond(exchange, Self.failure(error))
                    }
                }
                thread.name = "skillhost-ui-chat"
                thread.start()
                return
            }
            let reply = try change(request.method, path, body)
            respond(exchange, .json(reply.status, reply.body.serialized().utf8.map { $0 }))
        } catch {
            respond(exchange, Self.failure(error))
        }
    }

    /// `GET /api/skills` and `/api/skills/ID`.
    private func answerSkills(_ exchange: HTTPExchange, _ path: String) {
        let skills = WebSkills(chat.setup)
        do {
            let value = if let id = Self.suffix(path, after: "/api/skills/") { try skills.detail(id) } else { skills.list() }
            respond(exchange, .json(200, value.serialized().utf8.map { $0 }))
        } catch {
            respond(exchange, Self.failure(error))
        }
    }

    /// `{"error": "one line"}` with the refusal's status (500 for anything else).
    private static func failure(_ error: any Error) -> HTTPServerResponse {
        let refusal = error as? WebRefusal ?? WebRefusal(500, "\(error)")
        return .json(refusal.status, JSONValue.object(["error": .string(refusal.message)]).serialized().utf8.map { $0 })
    }

    private func respond(_ exchange: HTTPExchange, _ response: HTTPServerResponse) {
        exchange.respond(WebServer.secured(response))
    }

    /// What a GET of the API answers.
    private func get(_ path: String) throws -> JSONValue {
        let store = chat.setup.store
        switch path {
        case "/api/state":
            var messages: [JSONValue] = []
            var calls: [JSONValue] = []
            if let id = chat.sessionID {
                messages = try store.messages(session: id).map(RecordJSON.message)
                calls = try store.calls(matching: TraceFilter(sessionID: id, limit: 1000)).map(RecordJSON.call)
            }
            return [
                "session": chat.sessionID.map(JSONValue.string) ?? .null, "running": .bool(chat.isRunning),
                "model": .string(chat.modelName), "messages": .array(messages), "calls": .array(calls),
            ]
        case "/api/sessions":
            return ["sessions": .array(try store.sessions().map(RecordJSON.session))]
        case "/api/debug":
            return try DebugSnapshot.json(store: store, catalog: chat.setup.host.catalog(), session: chat.sessionID)
        case "/api/settings":
            return try WebSettings(chat: chat).current()
        default:
            if let id = Self.suffix(path, after: "/api/sessions/") {
                guard let session = try store.session(id: id) else {
                    throw WebRefusal(404, "no stored session \(id); pick one from the list")
                }
                return [
                    "session": RecordJSON.session(session),
                    "messages": .array(try store.messages(session: id).map(RecordJSON.message)),
                    "calls": .array(try store.calls(matching: TraceFilter(sessionID: id, limit: 1000)).map(RecordJSON.call)),
                ]
            }
            throw WebRefusal(404, "no page \(path); the page is at /")
        }
    }

    /// What a POST or DELETE does: its status and answer.
    private func change(_ method: String, _ path: String, _ body: JSONValue) throws -> (status: Int, body: JSONValue) {
        switch (method, path) {
        case ("POST", "/api/chat"):
            guard let text = body["text"]?.stringValue else { throw WebRefusal(400, "the body needs \"text\": the message") }
            try chat.send(text)
            return (202, ["session": chat.sessionID.map(JSONValue.string) ?? .null])
        case ("POST", "/api/stop"):
            return (200, ["stopped": .bool(chat.stop())])
        case ("POST", "/api/approve"):
            guard let id = body["id"]?.stringValue, let allow = body["allow"]?.boolValue else {
                throw WebRefusal(400, "the body needs \"id\" (the question) and \"allow\" (true or false)")
            }
            guard chat.approval.answer(id, allow: allow) else {
                throw WebRefusal(409, "question \(id) is no longer waiting (answered, or its turn stopped)")
            }
            return (200, ["answered": true])
        case ("POST", "/api/retry"):
            guard let id = body["call_id"]?.stringValue else { throw WebRefusal(400, "the body needs \"call_id\": the failed call") }
            try chat.retry(id)
            return (202, ["retrying": .string(id)])
        case ("POST", "/api/settings"):
            return (200, try WebSettings(chat: chat).save(body))
        case ("POST", "/api/approval"):
            guard let skill = body["skill"]?.stringValue, let policy = body["approval"]?.stringValue else {
                throw WebRefusal(400, "the body needs \"skill\" (an id) and \"approval\" (ask, allow or deny)")
            }
            return (200, try WebSettings(chat: chat).setApproval(skill, policy))
        case ("POST", "/api/open"):
            let id = body["session"]?.stringValue
            try chat.open(id)
            return (200, ["session": id.map(JSONValue.string) ?? .null])
        default:
            if method == "DELETE", let id = Self.suffix(path, after: "/api/sessions/") {
                if chat.sessionID == id, chat.isRunning {
                    throw WebRefusal(409, "session \(id) has a running turn; stop it before deleting")
                }
                guard try chat.setup.store.deleteSession(id: id) else { throw WebRefusal(404, "no stored session \(id)") }
                chat.forget(id)
                return (200, ["deleted": .string(id)])
            }
            if method == "POST", let id = Self.suffix(path, after: "/api/skills/") {
                guard let enabled = body["enabled"]?.boolValue else {
                    throw WebRefusal(400, "the body needs \"enabled\": true or false")
                }
                return (200, try WebSkills(chat.setup).setEnabled(id, enabled))
            }
            throw WebRefusal(405, "\(method) \(path) is not something this server does")
        }
    }

    /// The request's JSON body (`{}` when empty).
    private static func body(_ request: HTTPServerRequest) throws(WebRefusal) -> JSONValue {
        if request.body.isEmpty { return [:] }
        let type = (request.fields["content-type"] ?? "").lowercased()
        guard type.hasPrefix("application/json") else {
            throw WebRefusal(415, "Content-Type '\(WebAccess.shown(type))' is refused; the API takes application/json from the page")
        }
        do {
            return try JSONValue(parsing: request.body)
        } catch {
            throw WebRefusal(400, "the body is not JSON: \(error)")
        }
    }

    private static func suffix(_ path: String, after prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let rest = String(path.dropFirst(prefix.count))
        return rest.isEmpty || rest.contains("/") ? nil : rest
    }

    /// The event stream: every published event as `data: JSON`, a comment every 15 s to notice a closed
    /// page, until the page or the server goes.
    private func streamEvents(_ exchange: HTTPExchange) {
        var fields = HTTPFields([("Content-Type", "text/event-stream")])
        for (name, value) in WebServer.securityFields { fields.append(name, value) }
        let subscription = chat.events.subscribe()
        defer { chat.events.unsubscribe(subscription) }
        guard exchange.startStream(fields: fields), exchange.send(Array(": ready\n\n".utf8)) else { return }
        while let events = chat.events.next(subscription, waiting: 15) {
            if events.isEmpty {
                if exchange.peerHungUp || !exchange.send(Array(": keep-alive\n\n".utf8)) { return }
                continue
            }
            var bytes: [UInt8] = []
            for event in events { bytes += Array("data: \(event.serialized())\n\n".utf8) }
            if !exchange.send(bytes) { return }
        }
        exchange.finish()
    }
}
