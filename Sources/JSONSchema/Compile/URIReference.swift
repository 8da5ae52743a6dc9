/// An RFC 3986 URI reference split into its five parts, with reference resolution (section 5.2), enough
/// to resolve `$id`, `$ref` and `$dynamicRef` against a base URI. No network, no normalization beyond
/// dot-segment removal.
struct URIReference: Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits `text` by the RFC 3986 appendix B pattern; every string parses.
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            !rest[..<colon].contains(where: { $0 == "/" })
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            authority = String(afterSlashes[..<end])
            rest = afterSlashes[end...]
        }
        path = String(rest)
    }

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// The reference as text.
    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// This reference resolved against `base` (RFC 3986 section 5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        if let scheme {
            return URIReference(
                scheme: scheme, authority: authority, path: Self.removeDotSegments(path), query: query,
                fragment: fragment)
        }
        if authority != nil {
            return URIReference(
                scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path), query: query,
                fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(
                scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
                fragment: fragment)
        }
        let mergedPath: String
        if path.hasPrefix("/") {
            mergedPath = path
        } else if base.authority != nil && base.path.isEmpty {
            mergedPath = "/" + path
        } else if let slash = base.path.lastIndex(of: "/") {
            mergedPath = String(base.path[...slash]) + path
        } else {
            mergedPath = path
        }
        return URIReference(
            scheme: base.scheme, authority: base.authority, path: Self.removeDotSegments(mergedPath), query: query,
            fragment: fragment)
    }

    /// Removes "." and ".." segments (RFC 3986 section 5.2.4).
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
            } else if segment == ".." {
                if output.count > 1 || (output.count == 1 && output[0] != "") { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        var result = output.joined(separator: "/")
        if path.hasPrefix("/") && !result.hasPrefix("/") { result = "/" + result }
        return result
    }
}

extension URIReference {
    /// Resolves `reference` against the absolute `base` text; returns (URI without fragment, fragment).
    static func resolve(_ reference: String, against base: String) -> (uri: String, fragment: String) {
        var resolved = URIReference(reference).resolved(against: URIReference(base))
        let fragment = resolved.fragment ?? ""
        resolved.fragment = nil
        return (resolved.text, fragment)
    }

    /// Decodes `%XX` escapes (invalid escapes are kept as written).
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
