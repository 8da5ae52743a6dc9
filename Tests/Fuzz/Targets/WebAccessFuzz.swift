import SkillHTTP
@testable import SkillWeb

/// `skillhost ui`'s access check (``WebAccess``) on request heads any local program or web page can send:
/// the bytes are read as one request head by SkillHTTP's parser (as the server reads it), then checked
/// against a server on port 8080 whose URL token is `fuzztoken` (the corpus's seeds know it, so the fuzzer
/// reaches the exchange). Whatever the Host, Origin, Sec-Fetch-Site, Cookie and query say:
/// - nothing is allowed whose Host is not this server, whose Origin is another site, or that changes
///   something (not GET/HEAD) without an Origin;
/// - the URL's token is exchanged only when the query names it exactly, and only once: the same request
///   checked again is not exchanged again;
/// - a refusal is one printable line (header values are quoted only through ``WebAccess/shown(_:)``);
/// - `query` and `cookie` only ever return a piece of what they were given.
func fuzzWebAccess(_ input: [UInt8]) {
    var parser = HTTPRequestParser(limits: HTTPServerLimits())
    parser.append(input)
    guard let request = try? parser.head() else { return }
    let access = WebAccess(port: 8080, token: "fuzztoken")
    let verdict = access.check(request)
    let host = request.fields["host"]?.lowercased()
    let origin = request.fields["origin"]?.lowercased()
    let reading = request.method == "GET" || request.method == "HEAD"
    switch verdict {
    case .allowed, .exchange:
        guard let host, ["127.0.0.1:8080", "localhost:8080"].contains(host) else { fatalError("\(verdict) for Host \(String(describing: host))") }
        if let origin, !access.origins.contains(origin) { fatalError("\(verdict) for Origin \(origin)") }
        if !reading, origin == nil { fatalError("\(verdict) for a \(request.method) without Origin") }
    case .refused(let status, let reason):
        if ![400, 401, 403].contains(status) { fatalError("refused with status \(status)") }
        if reason.isEmpty || reason.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            fatalError("the refusal is not one printable line: \(reason.debugDescription)")
        }
    }
    if case .exchange(let setCookie) = verdict {
        if WebAccess.query(request.target, "token") != "fuzztoken" { fatalError("exchanged for the query \(request.target.debugDescription)") }
        if setCookie.contains("fuzztoken") || !setCookie.contains("HttpOnly") { fatalError("Set-Cookie \(setCookie)") }
        if case .exchange = access.check(request) { fatalError("the URL token was exchanged twice") }
        if access.url != nil { fatalError("the URL still shows its token after the exchange") }
    }
    // (Swift's `contains` is false for an empty needle: an empty value is a piece of anything.)
    if let value = WebAccess.query(request.target, "token"), !value.isEmpty, !request.target.contains(value) {
        fatalError("query gave \(value.debugDescription), not in \(request.target.debugDescription)")
    }
    let cookieHeader = request.fields["cookie"]
    if let value = WebAccess.cookie(cookieHeader, named: WebAccess.cookieName),
       value.contains(";") || (!value.isEmpty && !(cookieHeader ?? "").contains(value)) {
        fatalError("cookie gave \(value.debugDescription) of \(String(describing: cookieHeader).debugDescription)")
    }
}
