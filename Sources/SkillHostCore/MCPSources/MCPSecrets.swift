import Foundation

/// The one rule for secrets in an MCP server's registry entry: they are never written there. A value that
/// carries one — an `env` variable or an HTTP header whose name says it holds a credential — must be a
/// `${NAME}` reference to the host's environment, expanded only when the server is started or called.
public enum MCPSecrets {
    /// Words in a variable's or header's name that say its value is a credential.
    static let secretWords = ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "AUTH", "CREDENTIAL", "COOKIE", "SESSION", "PAT"]

    /// Why a literal `value` of `name` may not be stored (nil when it may): a credential's name with a value
    /// that is not made of `${NAME}` references alone (besides a scheme word such as `Bearer `).
    public static func literalSecretProblem(name: String, value: String, kind: String) -> String? {
        let upper = name.uppercased()
        let words = upper.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let secret = secretWords.contains { word in words.contains(word) || (word.count > 3 && upper.contains(word)) }
        guard secret else { return nil }
        let remainder = removingReferences(value).trimmingCharacters(in: .whitespaces)
        if references(in: value).isEmpty || !(remainder.isEmpty || ["Bearer", "Basic", "Token", "token", "bearer"].contains(remainder)) {
            return "holds a secret written out; the registry keeps only references: export it (export \(suggestedVariable(name))=…) and write \"\(value.hasPrefix("Bearer ") ? "Bearer " : "")${\(suggestedVariable(name))}\""
        }
        return nil
    }

    /// Why `url` is not an MCP endpoint (nil when it is one): http(s) only, with a host, no credentials in it.
    public static func urlProblem(_ url: String) -> String? {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            return "must be an http:// or https:// URL such as https://example.com/mcp, got \"\(url)\""
        }
        let rest = url.drop { $0 != "/" }.dropFirst(2)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.isEmpty { return "has no host: write it like https://example.com/mcp" }
        if authority.contains("@") {
            return "holds credentials (user:password@); put them in a header instead: --header 'Authorization: Bearer ${TOKEN}'"
        }
        return nil
    }

    /// The names referenced as `${NAME}` in `text`.
    public static func references(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "}") else { break }
            names.append(String(after[..<end]))
            rest = after[after.index(after: end)...]
        }
        return names
    }

    /// `text` with every `${NAME}` replaced by the variable's value in `environment`.
    /// - Throws: ``HostError`` (`denied`) naming the first variable that is not set, and where it is used.
    public static func expand(_ text: String, environment: [String: String], usedBy place: String) throws(HostError) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "}") else { break }
            let name = String(after[..<end])
            guard let value = environment[name] else {
                throw HostError(.denied, "\(place) refers to ${\(name)}, which is not set in this environment; export \(name) before starting skillhost")
            }
            result += rest[..<start.lowerBound] + value
            rest = after[after.index(after: end)...]
        }
        return result + rest
    }

    private static func removingReferences(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            result += rest[..<start.lowerBound]
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    private static func suggestedVariable(_ name: String) -> String {
        let upper = String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return upper == "AUTHORIZATION" ? "MCP_TOKEN" : upper
    }
}
