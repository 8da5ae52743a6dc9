import Testing

@testable import SkillAgent

/// How the proxy variables are read: which one applies, curl's NO_PROXY matching, proxy URLs and their
/// credentials, and what the request looks like when it goes to a proxy.
@Suite struct ProxySettingsTests {
    static let secure = HTTPURL("https://api.openai.com/v1/chat/completions")!
    static let plain = HTTPURL("http://localhost:11434/v1/chat/completions")!

    @Test("https URLs read https_proxy, HTTPS_PROXY, then ALL_PROXY; http URLs read http_proxy, HTTP_PROXY, then ALL_PROXY")
    func variableChoice() throws {
        let all: [String: String] = [
            "https_proxy": "http://lower-s:1", "HTTPS_PROXY": "http://upper-s:2", "http_proxy": "http://lower:3",
            "HTTP_PROXY": "http://upper:4", "all_proxy": "http://lower-all:5", "ALL_PROXY": "http://upper-all:6",
        ]
        func chosen(_ names: [String], _ url: HTTPURL) throws -> String? {
            let environment = ProxyEnvironment(all.filter { names.contains($0.key) })
            return try environment.proxy(for: url).map { "\($0.variable) \($0)" }
        }
        #expect(try chosen(Array(all.keys), Self.secure) == "https_proxy http://lower-s:1")
        #expect(try chosen(["HTTPS_PROXY", "ALL_PROXY"], Self.secure) == "HTTPS_PROXY http://upper-s:2")
        #expect(try chosen(["http_proxy", "HTTP_PROXY", "ALL_PROXY"], Self.secure) == "ALL_PROXY http://upper-all:6")
        #expect(try chosen(["all_proxy", "ALL_PROXY"], Self.secure) == "all_proxy http://lower-all:5")
        #expect(try chosen(Array(all.keys), Self.plain) == "http_proxy http://lower:3")
        #expect(try chosen(["HTTP_PROXY", "HTTPS_PROXY"], Self.plain) == "HTTP_PROXY http://upper:4")
        #expect(try chosen(["https_proxy", "HTTPS_PROXY"], Self.plain) == nil)
        #expect(try chosen([], Self.secure) == nil)
        // Empty counts as unset; unrelated names are ignored.
        #expect(try ProxyEnvironment(["https_proxy": "", "HTTPS_PROXY": "http://p:8"]).proxy(for: Self.secure)?.variable == "HTTPS_PROXY")
        #expect(ProxyEnvironment(["PATH": "/bin", "NO_PROXY": ""]).variables.isEmpty)
    }

    @Test("NO_PROXY is checked first, lower case before upper case; '*' alone exempts everything")
    func exemptionsFirst() throws {
        let bad = ["HTTPS_PROXY": "socks5://p:1080"]
        #expect(try ProxyEnvironment(bad.merging(["NO_PROXY": "openai.com"]) { $1 }).proxy(for: Self.secure) == nil)
        #expect(try ProxyEnvironment(bad.merging(["no_proxy": "*"]) { $1 }).proxy(for: Self.secure) == nil)
        #expect(try ProxyEnvironment(["HTTPS_PROXY": "p:3128", "no_proxy": "other.example", "NO_PROXY": "openai.com"]).proxy(for: Self.secure) != nil)
        #expect(throws: ModelProviderError.self) { try ProxyEnvironment(bad).proxy(for: Self.secure) }
    }

    @Test("names: exact or a dot-bounded suffix, any case, one leading and one trailing dot ignored (curl)")
    func nameMatching() {
        let list = NoProxyList("example.com, .corp.example., Internal")
        #expect(list.bypasses(host: "example.com", port: 443))
        #expect(list.bypasses(host: "api.example.com", port: 443))
        #expect(list.bypasses(host: "API.Example.COM.", port: 443))
        #expect(list.bypasses(host: "corp.example", port: 80))
        #expect(list.bypasses(host: "git.corp.example", port: 80))
        #expect(list.bypasses(host: "internal", port: 80))
        #expect(!list.bypasses(host: "notexample.com", port: 443))
        #expect(!list.bypasses(host: "example.com.evil", port: 443))
        #expect(!list.bypasses(host: "internal.example.org", port: 80))
        // localhost is not special, and names never match addresses.
        #expect(!NoProxyList("example.com").bypasses(host: "localhost", port: 80))
        #expect(!NoProxyList("localhost").bypasses(host: "127.0.0.1", port: 80))
        #expect(NoProxyList("localhost").bypasses(host: "localhost", port: 80))
    }

    @Test("'*' only alone; blanks and commas as curl cuts them")
    func listSyntax() {
        #expect(NoProxyList("*").bypasses(host: "anything.example", port: 1))
        #expect(!NoProxyList("*.example.com").bypasses(host: "a.example.com", port: 1))
        #expect(!NoProxyList("other, *").bypasses(host: "a.example.com", port: 1))
        #expect(NoProxyList(",, a.example ,,b.example").bypasses(host: "b.example", port: 1))
        // A blank that is not followed by a comma ends the list.
        #expect(!NoProxyList("a.example b.example").bypasses(host: "b.example", port: 1))
        #expect(NoProxyList("a.example b.example").bypasses(host: "a.example", port: 1))
        #expect(!NoProxyList("").bypasses(host: "a.example", port: 1))
        #expect(NoProxyList.entries(" a , b,,c  d") == ["a", "b", "c"])
    }

    @Test("addresses: IPv4 and IPv6, exact or CIDR; too many bits matches nothing")
    func addressMatching() {
        #expect(NoProxyList("127.0.0.1").bypasses(host: "127.0.0.1", port: 80))
        #expect(!NoProxyList("127.0.0.1").bypasses(host: "127.0.0.2", port: 80))
        #expect(NoProxyList("10.0.0.0/8").bypasses(host: "10.200.3.4", port: 80))
        #expect(!NoProxyList("10.0.0.0/8").bypasses(host: "11.0.0.1", port: 80))
        #expect(NoProxyList("192.168.0.0/17").bypasses(host: "192.168.127.1", port: 80))
        #expect(!NoProxyList("192.168.0.0/17").bypasses(host: "192.168.128.1", port: 80))
        #expect(!NoProxyList("10.0.0.0/33").bypasses(host: "10.0.0.0", port: 80))
        #expect(NoProxyList("::1").bypasses(host: "::1", port: 80))
        #expect(NoProxyList("fd00::/8").bypasses(host: "fd12:3456::1", port: 80))
        #expect(!NoProxyList("fd00::/8").bypasses(host: "fe80::1", port: 80))
        #expect(!NoProxyList("10.0.0.0/8").bypasses(host: "::ffff:10.0.0.1", port: 80))
        #expect(!NoProxyList("10.0.0.0/x").bypasses(host: "10.0.0.1", port: 80))
    }

    @Test("an entry with :port matches that port only")
    func portEntries() {
        #expect(NoProxyList("localhost:11434").bypasses(host: "localhost", port: 11434))
        #expect(!NoProxyList("localhost:11434").bypasses(host: "localhost", port: 8080))
        #expect(NoProxyList("127.0.0.1:8080").bypasses(host: "127.0.0.1", port: 8080))
        #expect(!NoProxyList("127.0.0.1:8080").bypasses(host: "127.0.0.1", port: 80))
        #expect(NoProxyList("[::1]:8080").bypasses(host: "::1", port: 8080))
        #expect(!NoProxyList("[::1]:8080").bypasses(host: "::1", port: 80))
    }

    @Test("proxy URLs: scheme optional, port 1080 by default, credentials percent-decoded into Basic")
    func proxyURLs() throws {
        let full = try HTTPProxy(parsing: "http://us%40er:p%3Ass@proxy.example:3128/", variable: "HTTPS_PROXY")
        #expect(full.host == "proxy.example")
        #expect(full.port == 3128)
        #expect(full.description == "http://proxy.example:3128")
        // base64("us@er:p:ss")
        #expect(full.authorization == "Basic dXNAZXI6cDpzcw==")
        let bare = try HTTPProxy(parsing: "proxy.example", variable: "ALL_PROXY")
        #expect(bare.port == 1080)
        #expect(bare.authorization == nil)
        #expect(try HTTPProxy(parsing: "HTTP://[::1]:8888", variable: "x").description == "http://[::1]:8888")
        // A user without a password; an unescaped '/' or '@' in the password.
        #expect(try HTTPProxy(parsing: "http://alone@p:1", variable: "x").authorization == "Basic " + HTTPProxy.base64(Array("alone:".utf8)))
        #expect(try HTTPProxy(parsing: "http://u:a/b@c@p:1", variable: "x").authorization == "Basic " + HTTPProxy.base64(Array("u:a/b@c".utf8)))
        #expect(try HTTPProxy(parsing: "http://u:a/b@c@p:1", variable: "x").host == "p")
        #expect(HTTPProxy.base64(Array("f".utf8)) == "Zg==")
        #expect(HTTPProxy.base64(Array("fo".utf8)) == "Zm8=")
        #expect(HTTPProxy.base64(Array("foo".utf8)) == "Zm9v")
    }

    @Test("bad proxy values are refused in one line naming the variable, never the password", arguments: [
        ("socks5://user:hunter2@p:1080", "uses 'socks5://'"),
        ("https://user:hunter2@p:443", "uses 'https://'"),
        ("http://user:hunter2@p:99999", "bad port '99999'"),
        ("http://user:hunter2@:3128", "names no proxy host"),
        ("http://user:hunt%zzer2@p:1", "bad %-escape"),
        ("http://user:hunter2@[::1:3128", "malformed IPv6 address"),
        ("http://user:hunter2@[::1]x:3128", "malformed IPv6 address"),
    ])
    func badProxyValues(value: String, why: String) {
        #expect {
            _ = try HTTPProxy(parsing: value, variable: "HTTPS_PROXY")
        } throws: { error in
            guard let error = error as? ModelProviderError else { return false }
            return error.kind == .transport && error.message.hasPrefix("HTTPS_PROXY '") && error.message.contains(why)
                && error.message.contains("set it like http://proxy.example:3128") && !error.message.contains("hunter")
                && !error.message.contains("hunt%zz") && !error.message.contains("\n")
        }
    }

    @Test("through a proxy: http requests use the absolute URL and carry Proxy-Authorization; https ones do not")
    func requestShape() throws {
        let proxy = try HTTPProxy(parsing: "http://u:p@proxy:3128", variable: "HTTP_PROXY")
        let request = HTTPRequest(
            url: "http://127.0.0.1:8080/v1/chat/completions?x=1", headers: ["Proxy-Authorization": "Basic forged"], body: [1])
        let forwarded = String(decoding: try HTTPRequestWriter.message(for: request, url: HTTPURL(request.url)!, proxy: proxy), as: UTF8.self)
        #expect(forwarded.hasPrefix("POST http://127.0.0.1:8080/v1/chat/completions?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
        #expect(forwarded.contains("Proxy-Authorization: Basic dTpw\r\n"))
        #expect(!forwarded.contains("forged"))
        let tunnelled = String(
            decoding: try HTTPRequestWriter.message(for: request, url: HTTPURL("https://api.example/v1")!, proxy: proxy), as: UTF8.self)
        #expect(tunnelled.hasPrefix("POST /v1 HTTP/1.1\r\nHost: api.example\r\n"))
        #expect(!tunnelled.contains("Proxy-Authorization"))
        let direct = String(decoding: try HTTPRequestWriter.message(for: request, url: HTTPURL(request.url)!), as: UTF8.self)
        #expect(direct.hasPrefix("POST /v1/chat/completions?x=1 HTTP/1.1\r\n"))
        #expect(!direct.contains("Proxy-Authorization"))
    }

    @Test("refusals: 403 and 502 name the proxy, the target, the status and the fix")
    func refusalWording() throws {
        let proxy = try HTTPProxy(parsing: "http://u:hunter2@proxy.corp:3128", variable: "HTTPS_PROXY")
        let forbidden = ProxyRefusal.error(status: 403, reason: "Forbidden\r\nX: y", proxy: proxy, target: "api.openai.com:443")
        #expect(
            forbidden.message
                == "the proxy http://proxy.corp:3128 (from HTTPS_PROXY) does not allow api.openai.com:443 (HTTP 403 ForbiddenX: y); ask its administrator to allow it, or list the host in NO_PROXY if it is reachable directly")
        #expect(forbidden.status == 403)
        let gateway = ProxyRefusal.error(status: 502, reason: "", proxy: proxy, target: "api.openai.com:443")
        #expect(gateway.message.contains("could not reach api.openai.com:443 (HTTP 502 Bad Gateway); check the --base-url"))
        #expect(!gateway.message.contains("hunter2"))
    }
}
