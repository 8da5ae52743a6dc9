#if canImport(Glibc)
import Glibc
#endif

/// Which proxy, if any, a request goes through: the proxy variables as curl and most tools read them.
///
/// - `https://` URLs: `https_proxy`, else `HTTPS_PROXY`, else `all_proxy`, else `ALL_PROXY`.
/// - `http://` URLs: `http_proxy`, else `HTTP_PROXY`, else `all_proxy`, else `ALL_PROXY`. (curl ignores
///   upper-case `HTTP_PROXY`, a guard for CGI programs where a request's `Proxy:` header becomes that
///   variable; skillhost is never a CGI program, and most other tools read it.)
/// - `no_proxy`, else `NO_PROXY`: hosts reached directly (see ``NoProxyList``); checked first, so a bad
///   proxy variable does not matter for a host it exempts.
/// - An empty variable counts as unset.
struct ProxyEnvironment: Sendable, Equatable {
    /// The variables that matter here, by name.
    static let names = [
        "https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
    ]

    /// The values read (only the names in ``names``; empty ones dropped).
    let variables: [String: String]

    /// The proxy settings in `variables` (other names are ignored).
    init(_ variables: [String: String]) {
        self.variables = variables.filter { Self.names.contains($0.key) && !$0.value.isEmpty }
    }

    /// The settings of this process's environment.
    static func current() -> ProxyEnvironment {
        var found: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return ProxyEnvironment(found)
    }

    /// No proxy for any request.
    static let direct = ProxyEnvironment([:])

    /// The proxy for a request to `url`, or nil when it goes directly.
    /// - Throws: ``ModelProviderError`` (`transport`) when the variable that applies is not a usable proxy URL.
    func proxy(for url: HTTPURL) throws(ModelProviderError) -> HTTPProxy? {
        if let exempt = first("no_proxy", "NO_PROXY"), NoProxyList(exempt.value).bypasses(host: url.host, port: url.port) {
            return nil
        }
        let candidates = url.isSecure
            ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
        guard let chosen = first(candidates) else { return nil }
        return try HTTPProxy(parsing: chosen.value, variable: chosen.name)
    }

    private func first(_ names: String...) -> (name: String, value: String)? { first(names) }

    private func first(_ names: [String]) -> (name: String, value: String)? {
        for name in names {
            if let value = variables[name] { return (name, value) }
        }
        return nil
    }
}
