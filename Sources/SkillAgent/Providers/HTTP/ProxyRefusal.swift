/// The one-line error for a proxy that refused a request: it names the proxy (never its credentials), the
/// variable it came from, the status, and the fix.
enum ProxyRefusal {
    /// The error for `status` (with the proxy's reason phrase, when it sent one) from `proxy` for a
    /// request to `target` (`host:port`).
    static func error(status: Int, reason: String, proxy: HTTPProxy, target: String) -> ModelProviderError {
        let phrase = Self.phrase(reason, status: status)
        let said = "HTTP \(status)\(phrase.isEmpty ? "" : " " + phrase)"
        let message: String
        switch status {
        case 407 where proxy.hasCredentials:
            message = "\(proxy.named) refused its credentials for \(target) (\(said)); check the user and password in \(proxy.variable)"
        case 407:
            message =
                "\(proxy.named) asks for credentials for \(target) (\(said)); put them in \(proxy.variable) as http://user:password@host:port"
        case 403:
            message =
                "\(proxy.named) does not allow \(target) (\(said)); ask its administrator to allow it, or list the host in NO_PROXY if it is reachable directly"
        case 502, 503, 504:
            message = "\(proxy.named) could not reach \(target) (\(said)); check the --base-url, and that the proxy can reach that host"
        default:
            message = "\(proxy.named) refused the connection to \(target) (\(said)); check \(proxy.variable)"
        }
        return ModelProviderError(.transport, message, status: status)
    }

    /// The reason phrase as sent (printable ASCII, at most 60 characters), else the standard one.
    private static func phrase(_ reason: String, status: Int) -> String {
        let printable = String(String.UnicodeScalarView(reason.unicodeScalars.filter { $0.value >= 32 && $0.value < 127 }.prefix(60)))
        let trimmed = printable.trimmingWhitespace()
        if !trimmed.isEmpty { return trimmed }
        switch status {
        case 403: return "Forbidden"
        case 407: return "Proxy Authentication Required"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return ""
        }
    }
}
