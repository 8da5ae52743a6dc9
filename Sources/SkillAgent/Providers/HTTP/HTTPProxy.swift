/// An HTTP proxy from a proxy variable (`HTTPS_PROXY=http://user:password@proxy.example:3128`), read as
/// curl reads it: `[http://][user[:password]@]host[:port][/]`, port 1080 when none is given.
///
/// The credentials are secrets: they leave this type only as the `Proxy-Authorization` header sent to the
/// proxy, never in ``description`` or in an error.
struct HTTPProxy: Sendable, Equatable, CustomStringConvertible {
    /// The proxy's host name or address (IPv6 without brackets).
    let host: String
    /// The proxy's port.
    let port: UInt16
    /// The variable the proxy came from (`HTTPS_PROXY`, `all_proxy`, …), for messages.
    let variable: String
    /// `user:password`, percent-decoded, when the URL carries credentials.
    private let credentials: String?

    /// curl's default proxy port.
    static let defaultPort: UInt16 = 1080

    /// The proxy named by `value`, the value of `variable`.
    /// - Throws: ``ModelProviderError`` (`transport`) naming the variable when the value is not an http
    ///   proxy URL (an `https://` or SOCKS proxy, a bad port, no host); the message never shows credentials.
    init(parsing value: String, variable: String) throws(ModelProviderError) {
        self.variable = variable
        let shown = Self.redacted(value)
        func refuse(_ why: String) -> ModelProviderError {
            ModelProviderError(.transport, "\(variable) '\(shown)' \(why); set it like http://proxy.example:3128 (or http://user:password@proxy.example:3128)")
        }
        var rest = Substring(value.trimmingWhitespace())
        if let scheme = rest.range(of: "://") {
            let name = rest[..<scheme.lowerBound].lowercased()
            guard name == "http" else {
                throw refuse("uses '\(name)://', which skillhost does not support (only http:// proxies, which tunnel https with CONNECT)")
            }
            rest = rest[scheme.upperBound...]
        }
        // The last "@" ends the credentials, even when an unescaped "/" or "@" is part of the password.
        var credentials: String?
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            guard let decoded = Self.percentDecoded(userinfo) else { throw refuse("has a bad %-escape in its user or password") }
            credentials = userinfo.contains(":") ? decoded : decoded + ":"
            rest = rest[rest.index(after: at)...]
        }
        self.credentials = credentials
        var authority = rest
        if let slash = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { authority = authority[..<slash] }
        guard let (hostText, portText) = HTTPURL.split(authority: authority) else {
            throw refuse("has a malformed IPv6 address (write it like [::1]:3128)")
        }
        host = String(hostText)
        guard !host.isEmpty, !host.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else { throw refuse("names no proxy host") }
        if portText.isEmpty {
            port = Self.defaultPort
        } else {
            guard let number = UInt16(portText), number > 0 else { throw refuse("has a bad port '\(portText)'") }
            port = number
        }
    }

    /// `http://host:port`, without credentials: what messages show.
    var description: String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// For messages: `http://host:port (from VARIABLE)`.
    var named: String { "the proxy \(description) (from \(variable))" }

    /// Whether the proxy URL carried credentials.
    var hasCredentials: Bool { credentials != nil }

    /// The `Proxy-Authorization` header value (`Basic …`), when the URL carried credentials.
    var authorization: String? {
        credentials.map { "Basic " + Self.base64(Array($0.utf8)) }
    }

    /// A proxy variable's value without its credentials (everything up to the last `@`), for messages.
    static func redacted(_ value: String) -> String {
        guard let at = value.lastIndex(of: "@") else { return value }
        let start = value.range(of: "://").map(\.upperBound) ?? value.startIndex
        guard start <= at else { return String(value[value.index(after: at)...]) }
        return String(value[..<start]) + String(value[value.index(after: at)...])
    }

    // MARK: - Encoding

    /// `%XX` sequences replaced by their bytes; nil when an escape is malformed or the result is not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Standard base64 with padding (RFC 4648 §4), as Basic authentication needs.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let second = index + 1 < bytes.count ? bytes[index + 1] : 0
            let third = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(first >> 2)])
            output.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
            output.append(index + 1 < bytes.count ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(third & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
