import SkillHTTP
import Testing

@testable import SkillWeb

/// Every request to `skillhost ui` passes ``WebAccess``: each bad one is refused with its reason.
@Suite struct WebAccessTests {
    static let port: UInt16 = 40123
    static let token = String(repeating: "ab", count: 32)

    static func request(
        _ method: String = "GET", _ target: String = "/", host: String? = "127.0.0.1:\(port)", _ fields: [(String, String)] = []
    ) -> HTTPServerRequest {
        var all = HTTPFields()
        if let host { all.append("Host", host) }
        for (name, value) in fields { all.append(name, value) }
        return HTTPServerRequest(method: method, target: target, fields: all)
    }

    /// The cookie a right token buys.
    static func signedIn(_ access: WebAccess) throws -> String {
        guard case .exchange(let setCookie) = access.check(request("GET", "/?token=\(token)")) else {
            throw TestSetupError("the right token was not exchanged")
        }
        return String(setCookie.split(separator: ";")[0])
    }

    func refusal(_ verdict: WebAccess.Verdict) -> (Int, String)? {
        if case .refused(let status, let reason) = verdict { return (status, reason) }
        return nil
    }

    @Test func theTokenIsExchangedOnceForAnHttpOnlySameSiteStrictCookie() throws {
        let access = WebAccess(port: Self.port, token: Self.token)
        #expect(access.url == "http://127.0.0.1:\(Self.port)/?token=\(Self.token)")
        let wrong = refusal(access.check(Self.request("GET", "/?token=\(String(repeating: "cd", count: 32))")))
        #expect(wrong?.0 == 403)
        #expect(wrong?.1.contains("the token in the URL is wrong") == true)
        guard case .exchange(let setCookie) = access.check(Self.request("GET", "/?token=\(Self.token)")) else {
            Issue.record("the token was not exchanged")
            return
        }
        #expect(setCookie.hasPrefix("skillhost_ui="))
        #expect(setCookie.contains("HttpOnly"))
        #expect(setCookie.contains("SameSite=Strict"))
        #expect(!setCookie.contains(Self.token), "the cookie is a secret of its own, not the URL's token")
        #expect(access.url == nil)
        let again = refusal(access.check(Self.request("GET", "/?token=\(Self.token)")))
        #expect(again?.0 == 403)
        #expect(again?.1.contains("already used") == true)
        let cookie = String(setCookie.split(separator: ";")[0])
        #expect(access.check(Self.request("GET", "/api/state", [("Cookie", "theme=dark; " + cookie)])) == .allowed)
        #expect(access.check(Self.request("GET", "/", host: "localhost:\(Self.port)", [("Cookie", cookie)])) == .allowed)
    }

    @Test func aRequestWithoutTheCookieOrWithAnotherIsRefused() throws {
        let access = WebAccess(port: Self.port, token: Self.token)
        let none = refusal(access.check(Self.request("GET", "/api/state")))
        #expect(none?.0 == 401)
        #expect(none?.1 == "no session cookie; open the URL with the token that 'skillhost ui' printed")
        let other = refusal(access.check(Self.request("GET", "/api/state", [("Cookie", "skillhost_ui=\(String(repeating: "0", count: 64))")])))
        #expect(other?.0 == 401)
        #expect(other?.1.contains("not this server's") == true)
    }

    @Test func anotherHostIsRefusedEvenWithTheCookie() throws {
        let access = WebAccess(port: Self.port, token: Self.token)
        let cookie = try Self.signedIn(access)
        let rebound = refusal(access.check(Self.request("GET", "/api/state", host: "attacker.example:\(Self.port)", [("Cookie", cookie)])))
        #expect(rebound?.0 == 403)
        #expect(rebound?.1 == "Host 'attacker.example:\(Self.port)' is not this server (a name rebound to 127.0.0.1?); open http://127.0.0.1:\(Self.port)/ instead")
        let otherPort = refusal(access.check(Self.request("GET", "/", host: "127.0.0.1:1", [("Cookie", cookie)])))
        #expect(otherPort?.0 == 403)
        let missing = refusal(access.check(Self.request("GET", "/", host: nil, [("Cookie", cookie)])))
        #expect(missing?.0 == 400)
        #expect(missing?.1.contains("no Host header") == true)
        // The token is not spent by a refused request.
        #expect(refusal(access.check(Self.request("GET", "/?token=\(Self.token)", host: "attacker.example"))) != nil)
    }

    @Test func anotherOriginAndCrossSiteRequestsAreRefused() throws {
        let access = WebAccess(port: Self.port, token: Self.token)
        let cookie = try Self.signedIn(access)
        let foreign = refusal(
            access.check(Self.request("POST", "/api/chat", [("Cookie", cookie), ("Origin", "https://attacker.example")])))
        #expect(foreign?.0 == 403)
        #expect(foreign?.1 == "Origin 'https://attacker.example' is another site; only pages of http://127.0.0.1:\(Self.port) may call this server")
        let foreignGet = refusal(access.check(Self.request("GET", "/api/sessions", [("Cookie", cookie), ("Origin", "null")])))
        #expect(foreignGet?.0 == 403)
        let noOrigin = refusal(access.check(Self.request("DELETE", "/api/sessions/x", [("Cookie", cookie)])))
        #expect(noOrigin?.0 == 403)
        #expect(noOrigin?.1.contains("without an Origin header") == true)
        let crossSite = refusal(
            access.check(Self.request("GET", "/api/state", [("Cookie", cookie), ("Sec-Fetch-Site", "cross-site")])))
        #expect(crossSite?.0 == 403)
        #expect(crossSite?.1.contains("Sec-Fetch-Site 'cross-site'") == true)
        // The page's own requests pass.
        let own = "http://127.0.0.1:\(Self.port)"
        #expect(access.check(Self.request("POST", "/api/chat", [("Cookie", cookie), ("Origin", own), ("Sec-Fetch-Site", "same-origin")])) == .allowed)
    }

    @Test func refusalsQuoteOnlyPrintableText() {
        let access = WebAccess(port: Self.port, token: Self.token)
        let reason = refusal(access.check(Self.request("GET", "/", host: "evil\u{1B}[31m.example" + String(repeating: "x", count: 200))))
        #expect(reason?.1.contains("\u{1B}") == false)
        #expect(reason?.1.contains("…") == true)
    }
}
