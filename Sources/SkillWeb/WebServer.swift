import SkillHTTP
import SkillJSON
import Synchronization

/// `skillhost ui`'s server: ``HTTPServer`` on 127.0.0.1, every request through ``WebAccess`` first, the
/// page (embedded, ``WebPage``) and its JSON API (``WebRoutes``), every answer with a strict
/// Content-Security-Policy and no caching.
public final class WebServer: Sendable {
    /// The page's conversation.
    public let chat: WebChat
    /// Who may talk to it.
    public let access: WebAccess
    private let server: HTTPServer
    private let routes: WebRoutes

    /// The fields every answer carries: nothing but this server's own files may run, load or be posted to;
    /// no framing, no sniffing, no referrer, no caching.
    public static let securityFields: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"), ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// Binds 127.0.0.1:`port` (0: a free port) for `chat`; ``start()`` serves.
    /// - Throws: one line when the port cannot be bound.
    public init(chat: WebChat, port: UInt16, log: @escaping @Sendable (String) -> Void = { _ in }) throws(HTTPServerError) {
        self.chat = chat
        let holder = Mutex<(WebAccess, WebRoutes)?>(nil)
        var limits = HTTPServerLimits()
        limits.maximumConnections = 64
        limits.maximumBodyBytes = 16 << 20  // an uploaded instruction skill's archive
        server = try HTTPServer(host: "127.0.0.1", port: port, limits: limits, log: log) { exchange in
            guard let (access, routes) = holder.withLock({ $0 }) else { return }
            Self.handle(exchange, access: access, routes: routes)
        }
        access = WebAccess(port: server.port)
        routes = WebRoutes(chat: chat)
        holder.withLock { [access, routes] in $0 = (access, routes) }
    }

    /// The port.
    public var port: UInt16 { server.port }

    /// The URL to open, with its one-time token.
    public var url: String? { access.url }

    /// Starts serving.
    public func start() { server.start() }

    /// Stops: the running turn is stopped, event streams close, then the server.
    public func stop() async {
        await chat.drain()
        chat.events.close()
        server.stop()
    }

    static func handle(_ exchange: HTTPExchange, access: WebAccess, routes: WebRoutes) {
        switch access.check(exchange.request) {
        case .refused(let status, let reason):
            exchange.closeAfterwards()
            exchange.respond(secured(.text(status, reason)))
        case .exchange(let cookie):
            var fields = HTTPFields([("Location", "/"), ("Set-Cookie", cookie)])
            fields.append("Content-Type", "text/plain; charset=utf-8")
            exchange.respond(secured(HTTPServerResponse(status: 303, fields: fields, body: Array("signed in; go to /\n".utf8))))
        case .allowed:
            routes.answer(exchange)
        }
    }

    /// `response` with ``securityFields``.
    static func secured(_ response: HTTPServerResponse) -> HTTPServerResponse {
        var response = response
        for (name, value) in securityFields { response.fields.append(name, value) }
        return response
    }
}
