/// `uri`, `uri-reference`, `iri`, `iri-reference` (RFC 3986 / RFC 3987 grammar) and `uri-template`
/// (RFC 6570 level 4 syntax).
enum URIFormats {
    /// An absolute URI: a scheme, then a valid hierarchical part, query and fragment.
    static func isURI(_ text: String) -> Bool { isReference(text, international: false, requireScheme: true) }
    /// A URI or a relative reference.
    static func isURIReference(_ text: String) -> Bool { isReference(text, international: false, requireScheme: false) }
    /// An absolute IRI (non-ASCII characters allowed).
    static func isIRI(_ text: String) -> Bool { isReference(text, international: true, requireScheme: true) }
    /// An IRI or a relative IRI reference.
    static func isIRIReference(_ text: String) -> Bool { isReference(text, international: true, requireScheme: false) }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".unicodeScalars)
    private static let subDelimiters = Set("!$&'()*+,;=".unicodeScalars)

    /// Whether every character is allowed in a URI component (pct-encoded triples included).
    private static func isComponent(
        _ text: Substring, extra: String, international: Bool, privateUse: Bool = false
    ) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "%" {
                guard index + 2 < scalars.count, Character(scalars[index + 1]).isHexDigit,
                    Character(scalars[index + 2]).isHexDigit
                else { return false }
                index += 3
                continue
            }
            let allowed = unreserved.contains(scalar) || subDelimiters.contains(scalar)
                || extra.unicodeScalars.contains(scalar)
                || (international && scalar.value >= 0xA0 && !(0xD800...0xDFFF).contains(scalar.value)
                    && (privateUse || scalar.properties.generalCategory != .privateUse))
            if !allowed { return false }
            index += 1
        }
        return true
    }

    private static func isReference(_ text: String, international: Bool, requireScheme: Bool) -> Bool {
        let reference = URIReference(text)
        if let scheme = reference.scheme {
            guard let first = scheme.unicodeScalars.first, first.isASCII, Character(first).isLetter,
                scheme.unicodeScalars.allSatisfy({ $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "+-.".unicodeScalars.contains($0)) })
            else { return false }
        } else {
            if requireScheme { return false }
            // A relative path's first segment must not contain ':'.
            if reference.authority == nil, let firstSegment = reference.path.split(separator: "/").first,
                !reference.path.hasPrefix("/"), firstSegment.contains(":")
            {
                return false
            }
        }
        if let authority = reference.authority, !isAuthority(authority, international: international) { return false }
        guard isComponent(reference.path[...], extra: ":@/", international: international) else { return false }
        if let query = reference.query,
            !isComponent(query[...], extra: ":@/?", international: international, privateUse: international)
        {
            return false
        }
        if let fragment = reference.fragment, !isComponent(fragment[...], extra: ":@/?", international: international) {
            return false
        }
        return true
    }

    private static func isAuthority(_ authority: String, international: Bool) -> Bool {
        var rest = Substring(authority)
        if let at = rest.lastIndex(of: "@") {
            guard isComponent(rest[..<at], extra: ":", international: international) else { return false }
            rest = rest[rest.index(after: at)...]
        }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return false }
            let literal = rest[rest.index(after: rest.startIndex)..<close]
            guard NetworkFormats.isIPv6(String(literal)) || literal.lowercased().hasPrefix("v") else { return false }
            rest = rest[rest.index(after: close)...]
            if rest.isEmpty { return true }
            guard rest.hasPrefix(":") else { return false }
            return rest.dropFirst().allSatisfy(\.isASCIIDigit)
        }
        if let colon = rest.lastIndex(of: ":") {
            guard rest[rest.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return false }
            rest = rest[..<colon]
        }
        return isComponent(rest, extra: "", international: international)
    }

    /// RFC 6570: literals outside `{}`; inside, an optional operator and comma-separated variables with
    /// optional `:prefix` or `*` modifiers.
    static func isURITemplate(_ text: String) -> Bool {
        var inside = false
        var expression = ""
        for character in text {
            if inside {
                if character == "}" {
                    guard isTemplateExpression(expression) else { return false }
                    inside = false
                    expression = ""
                } else if character == "{" {
                    return false
                } else {
                    expression.append(character)
                }
            } else if character == "{" {
                inside = true
            } else if character == "}" || character == " " || character == "\""
                || character == "<" || character == ">" || character == "\\" || character == "^" || character == "`"
                || character == "|" || character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            {
                return false
            }
        }
        return !inside
    }

    private static func isTemplateExpression(_ expression: String) -> Bool {
        var body = Substring(expression)
        if let first = body.first, "+#./;?&=,!@|".contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        for variable in body.split(separator: ",", omittingEmptySubsequences: false) {
            var name = variable
            if name.hasSuffix("*") {
                name = name.dropLast()
            } else if let colon = name.firstIndex(of: ":") {
                let length = name[name.index(after: colon)...]
                guard (1...4).contains(length.count), length.allSatisfy(\.isASCIIDigit), length.first != "0" else { return false }
                name = name[..<colon]
            }
            guard !name.isEmpty, name.first != ".", name.last != ".", !name.contains(".."),
                name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" || $0 == "." || $0 == "%" })
            else { return false }
        }
        return true
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
