/// `ipv4`, `ipv6`, `hostname`, `email` and `uuid`.
enum NetworkFormats {
    /// Dotted-quad IPv4 (RFC 2673 section 3.2): four decimal octets 0–255 without leading zeros.
    static func isIPv4(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            if part.count > 1 && part.first == 0x30 { return false }
            var value = 0
            for digit in part { value = value * 10 + Int(digit - 0x30) }
            if value > 255 { return false }
        }
        return true
    }

    /// IPv6 text form (RFC 4291 section 2.2), including `::` compression and a trailing dotted IPv4;
    /// no zone identifier.
    static func isIPv6(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        var body = Substring(text)
        var available = 8
        if let lastColon = body.lastIndex(of: ":"), body[body.index(after: lastColon)...].contains(".") {
            guard isIPv4(String(body[body.index(after: lastColon)...])) else { return false }
            body = body[...lastColon]
            if !body.hasSuffix("::") { body = body.dropLast() }
            available = 6
        }
        let halves = body.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return false }
        func groups(_ part: Substring) -> Int? {
            if part.isEmpty { return 0 }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for piece in pieces where piece.isEmpty || piece.count > 4 || !piece.allSatisfy(\.isHexDigit) { return nil }
            return pieces.count
        }
        if halves.count == 1 { return groups(halves[0]) == available }
        guard let head = groups(halves[0]), let tail = groups(halves[1]) else { return false }
        return head + tail < available
    }

    /// An RFC 1123 host name: dot-separated labels of letters, digits and hyphens, each 1–63 characters,
    /// not starting or ending with a hyphen, at most 253 characters; `xn--` labels must be valid Punycode.
    static func isHostname(_ text: String) -> Bool {
        let name = text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            guard label.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }) else { return false }
            let lower = label.lowercased()
            if lower.hasPrefix("xn--") {
                guard let decoded = IDNA.decodeALabel(String(lower.dropFirst(4))), IDNA.isValidULabel(decoded) else {
                    return false
                }
            } else if label.utf8.count >= 4, Array(label.utf8)[2] == UInt8(ascii: "-"), Array(label.utf8)[3] == UInt8(ascii: "-") {
                return false  // "--" in positions 3–4 is reserved for IDNA prefixes
            }
        }
        return true
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// An RFC 5321 mailbox: a dot-atom or quoted local part, `@`, and a host name or an address literal.
    static func isEmail(_ text: String) -> Bool { isMailbox(text, international: false) }

    /// An RFC 6531 mailbox: like `email`, non-ASCII allowed in the local part and an IDN domain.
    static func isInternationalEmail(_ text: String) -> Bool { isMailbox(text, international: true) }

    private static func isMailbox(_ text: String, international: Bool) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = String(text[text.index(after: at)...])
        guard !local.isEmpty, !domain.isEmpty else { return false }
        if local.hasPrefix("\"") {
            guard local.count >= 2, local.hasSuffix("\"") else { return false }
        } else {
            let atext = "!#$%&'*+-/=?^_`{|}~"
            for atom in local.split(separator: ".", omittingEmptySubsequences: false) {
                guard !atom.isEmpty else { return false }
                for scalar in atom.unicodeScalars {
                    let ok = scalar.isASCII
                        ? (isLetterOrDigit(UInt8(scalar.value)) || atext.unicodeScalars.contains(scalar))
                        : international
                    if !ok { return false }
                }
            }
        }
        if domain.hasPrefix("[") && domain.hasSuffix("]") {
            let literal = String(domain.dropFirst().dropLast())
            if literal.lowercased().hasPrefix("ipv6:") { return isIPv6(String(literal.dropFirst(5))) }
            return isIPv4(literal)
        }
        return international ? IDNA.isHostname(domain) : isHostname(domain)
    }

    /// An RFC 4122 UUID: 8-4-4-4-12 hex digits.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !Character(Unicode.Scalar(byte)).isHexDigit {
                return false
            }
        }
        return true
    }
}
