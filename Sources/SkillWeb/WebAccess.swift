import SkillHTTP
import Synchronization

/// Who may talk to `skillhost ui`: the one browser that opened the printed URL. Every request is checked,
/// in this order, and each refusal names its reason in one line:
/// 1. `Host` is this server as the URL names it (`127.0.0.1:PORT` or `localhost:PORT`): a page of another
///    site whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name and is refused;
/// 2. `Origin`, when sent, is this server, and every request that changes something (not GET or HEAD)
///    sends it; `Sec-Fetch-Site`, when sent, is `same-origin` or `none` (typed or opened from the terminal):
///    another site's page cannot post a form or script a request here (CSRF);
/// 3. the token: the URL's one-time `?token=` on the first load, exchanged for a cookie (`HttpOnly`,
///    `SameSite=Strict`, a secret of its own), which every later request carries.
public final class WebAccess: Sendable {
    /// The cookie's name.
    public static let cookieName = "skillhost_ui"

    /// The port the server listens on (part of the expected `Host` and `Origin`).
    public let port: UInt16
    /// The token of the printed URL, until it is used.
    private let urlToken: Mutex<String?>
    /// What the cookie carries.
    private let cookieSecret: String

    /// Access for a server on `port`, with a fresh random URL token and cookie secret.
    public init(port: UInt16) {
        self.port = port
        urlToken = Mutex(Self.randomSecret())
        cookieSecret = Self.randomSecret()
    }

    /// Access with a given URL token (tests).
    init(port: UInt16, token: String) {
        self.port = port
        urlToken = Mutex(token)
        cookieSecret = Self.randomSecret()
    }

    /// The URL to open: the server and its one-time token (nil after it was used).
    public var url: String? {
        urlToken.withLock { token in token.map { "http://127.0.0.1:\(port)/?token=\($0)" } }
    }

    /// What to do with a request.
    public enum Verdict: Sendable, Equatable {
        /// Serve it.
        case allowed
        /// The URL's token, right: answer with a redirect to `/` that sets this `Set-Cookie` value.
        case exchange(setCookie: String)
        /// Refuse it: the status and the one-line reason.
        case refused(status: Int, reason: String)
    }

    /// The origins this server answers to.
    public var origins: [String] { ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] }

    /// The verdict on `request`.
    public func check(_ request: HTTPServerRequest) -> Verdict {
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = request.fields["host"]?.lowercased() else {
            return .refused(status: 400, reason: "the request has no Host header; open \(origins[0])/ in a browser")
        }
        guard hosts.contains(host) else {
            return .refused(
                status: 403,
                reason: "Host '\(Self.shown(host))' is not this server (a name rebound to 127.0.0.1?); open \(origins[0])/ instead")
        }
        let origin = request.fields["origin"]
        let changes = request.method != "GET" && request.method != "HEAD"
        if let origin, !origins.contains(origin.lowercased()) {
            return .refused(
                status: 403, reason: "Origin '\(Self.shown(origin))' is another site; only pages of \(origins[0]) may call this server")
        }
        if changes, origin == nil {
            return .refused(status: 403, reason: "a \(request.method) without an Origin header is refused (cross-site request forgery); send it from the page at \(origins[0])")
        }
        if let site = request.fields["sec-fetch-site"]?.lowercased(), site != "same-origin", site != "none" {
            return .refused(status: 403, reason: "Sec-Fetch-Site '\(Self.shown(site))': a request started by another site is refused; use the page at \(origins[0])")
        }
        // A browser that has the cookie goes on, whatever its URL still says.
        let cookie = Self.cookie(request.fields["cookie"], named: Self.cookieName)
        if let cookie, Self.same(cookie, cookieSecret) { return .allowed }
        if let given = Self.query(request.target, "token") {
            return urlToken.withLock { token -> Verdict in
                guard let expected = token else {
                    return .refused(
                        status: 403,
                        reason: "this URL's token was already used (it works once); go on in the browser that opened it, or restart 'skillhost ui' for a new URL")
                }
                guard Self.same(given, expected) else {
                    return .refused(status: 403, reason: "the token in the URL is wrong; open the URL 'skillhost ui' printed, as printed")
                }
                token = nil
                return .exchange(
                    setCookie: "\(Self.cookieName)=\(cookieSecret); Path=/; HttpOnly; SameSite=Strict")
            }
        }
        guard cookie != nil else {
            return .refused(status: 401, reason: "no session cookie; open the URL with the token that 'skillhost ui' printed")
        }
        return .refused(status: 401, reason: "the session cookie is not this server's (was 'skillhost ui' restarted?); open the URL it printed")
    }

    /// The value of `name` in a query string, percent-decoding not needed (tokens are hex).
    static func query(_ target: String, _ name: String) -> String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first == Substring(name) { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ header: String?, named name: String) -> String? {
        for item in (header ?? "").split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1)
            if parts.count == 2, trimmed(parts[0]) == name { return trimmed(parts[1]) }
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// Compares in time independent of where the texts differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// A header value as a refusal quotes it: printable ASCII, at most 80 characters.
    static func shown(_ value: String) -> String {
        let printable = String(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        return printable.count > 80 ? String(printable.prefix(80)) + "…" : printable
    }

    /// 32 random bytes as hex (the system's random source).
    static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }
}
