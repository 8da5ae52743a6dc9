/// The parts of an `http://` or `https://` URL that a request needs. Parsed by hand so the transport does not
/// pull in Foundation's URL machinery.
struct HTTPURL: Sendable, Equatable {
    /// Whether the connection uses TLS.
    var isSecure: Bool
    /// The host name or address, without brackets for IPv6 literals.
    var host: String
    /// The port (80 or 443 unless the URL names one).
    var port: UInt16
    /// Path and query, starting with `/` (the request target).
    var target: String

    /// The `Host` header value: the host, bracketed when IPv6, with the port when it is not the default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Parses `text`; nil when it is not an absolute http(s) URL with a host.
    init?(_ text: String) {
        let lowered = text.lowercased()
        var rest: Substring
        if lowered.hasPrefix("https://") {
            isSecure = true
            rest = text.dropFirst(8)
        } else if lowered.hasPrefix("http://") {
            isSecure = false
            rest = text.dropFirst(7)
        } else {
            return nil
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        target = path.isEmpty ? "/" : (path.first == "?" ? "/" + path : String(path))
        // user:password@ is dropped (credentials travel in headers, never in the URL).
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard let (hostText, portText) = Self.split(authority: authority) else { return nil }
        host = String(hostText)
        // By bytes: "\r\n" is one Character in Swift, equal to neither "\r" nor "\n".
        guard !host.isEmpty, !host.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else { return nil }
        if portText.isEmpty {
            port = isSecure ? 443 : 80
        } else {
            guard let number = UInt16(portText), number > 0 else { return nil }
            port = number
        }
        guard !target.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else { return nil }
    }

    /// `host[:port]` or `[IPv6]:port` split into the host (without brackets) and the port text ("" when
    /// there is none); nil when a `[` is not closed or something other than `:port` follows the `]`.
    static func split(authority: Substring) -> (host: Substring, port: Substring)? {
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, "") }
            guard after.first == ":" else { return nil }
            return (host, after.dropFirst())
        }
        if let colon = authority.lastIndex(of: ":") {
            return (authority[..<colon], authority[authority.index(after: colon)...])
        }
        return (authority, "")
    }
}
