#if canImport(Glibc)
import Glibc
#endif

/// The hosts that are reached directly although a proxy is set: the value of `NO_PROXY` (or `no_proxy`),
/// read the way curl reads it (`Curl_check_noproxy`).
///
/// - Entries are separated by commas; blanks around an entry are skipped, and a blank that is not followed
///   by a comma ends the list.
/// - `*` alone matches every host. Anywhere else it is an ordinary entry (that matches nothing).
/// - A name matches that host and every host below it, ignoring case and one trailing dot:
///   `example.com` and `.example.com` both match `example.com` and `api.example.com`, not `notexample.com`.
/// - When the host is an IPv4 or IPv6 address, only address entries match it, optionally as a CIDR range:
///   `10.0.0.0/8`, `::1`, `fd00::/8`. A name never matches an address, and `localhost` is not special: list
///   `localhost,127.0.0.1,::1` to reach local servers directly (as with curl).
/// - Beyond curl: an entry may end in `:port` (`example.com:8080`, `127.0.0.1:11434`, `[::1]:8080`) and then
///   matches only that port. curl never matches such an entry.
struct NoProxyList: Sendable, Equatable {
    /// The raw value.
    let text: String

    /// The list in `text` (the variable's value).
    init(_ text: String) {
        self.text = text
    }

    /// Whether a request to `host` on `port` goes directly (true) instead of through the proxy.
    func bypasses(host: String, port: UInt16) -> Bool {
        guard !host.isEmpty, !text.isEmpty else { return false }
        if text == "*" { return true }
        let address = Self.address(host)
        var name = host.lowercased()
        if address == nil, name.hasSuffix(".") { name.removeLast() }
        for entry in Self.entries(text) {
            let (pattern, entryPort) = Self.splitPort(entry)
            if let entryPort, entryPort != port { continue }
            if pattern.isEmpty { continue }
            if let address {
                if Self.matches(address: address, pattern: pattern) { return true }
            } else if Self.matches(name: name, pattern: pattern.lowercased()) {
                return true
            }
        }
        return false
    }

    // MARK: - Entries

    /// The entries, as curl cuts them: blanks skipped, commas separate, a blank without a comma ends it.
    static func entries(_ text: String) -> [Substring] {
        var entries: [Substring] = []
        var rest = Substring(text)
        func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }
        while !rest.isEmpty {
            rest = rest.drop(while: isBlank)
            let end = rest.firstIndex { isBlank($0) || $0 == "," } ?? rest.endIndex
            if end > rest.startIndex { entries.append(rest[..<end]) }
            rest = rest[end...].drop(while: isBlank)
            guard rest.first == "," else { break }
            rest = rest.drop { $0 == "," }
        }
        return entries
    }

    /// An entry without its `:port` suffix, and the port. A bare IPv6 address (several colons, no
    /// brackets) has no port.
    static func splitPort(_ entry: Substring) -> (Substring, UInt16?) {
        if entry.first == "[" {
            guard let close = entry.firstIndex(of: "]") else { return (entry, nil) }
            let inside = entry[entry.index(after: entry.startIndex)..<close]
            let after = entry[entry.index(after: close)...]
            guard after.first == ":", let port = UInt16(after.dropFirst()) else { return (inside, nil) }
            return (inside, port)
        }
        guard entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":"),
            let port = UInt16(entry[entry.index(after: colon)...])
        else { return (entry, nil) }
        return (entry[..<colon], port)
    }

    // MARK: - Names

    /// curl's `match_host`: exact, or a tail match on a dot boundary; one leading and one trailing dot
    /// of the pattern are ignored.
    static func matches(name: String, pattern: String) -> Bool {
        var token = Substring(pattern)
        if token.hasSuffix(".") { token.removeLast() }
        if token.hasPrefix(".") { token.removeFirst() }
        guard !token.isEmpty else { return false }
        if token.count == name.count { return token == name }
        guard token.count < name.count, name.hasSuffix(token) else { return false }
        let boundary = name.index(name.endIndex, offsetBy: -(token.count + 1))
        return name[boundary] == "."
    }

    // MARK: - Addresses

    /// The bytes of an IPv4 (4) or IPv6 (16) address literal; nil for a name.
    static func address(_ text: some StringProtocol) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// curl's `match_ip`: the pattern is an address of the same family, with an optional `/bits`; `/0`
    /// or no suffix compares the whole address, more bits than the address has match nothing.
    static func matches(address: [UInt8], pattern: Substring) -> Bool {
        var network = pattern
        var bits = 0
        if let slash = pattern.firstIndex(of: "/") {
            let digits = pattern[pattern.index(after: slash)...]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits) else { return false }
            bits = value
            network = pattern[..<slash]
        }
        guard let check = Self.address(network), check.count == address.count else { return false }
        let total = address.count * 8
        if bits == 0 { bits = total }
        guard bits <= total else { return false }
        for index in 0..<(bits / 8) where address[index] != check[index] { return false }
        let rest = bits % 8
        if rest > 0 {
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - rest))
            if (address[bits / 8] ^ check[bits / 8]) & mask != 0 { return false }
        }
        return true
    }
}
