import Glibc
import SkillJSON

/// Keeps secrets out of the history: values of fields a skill's schema marks `writeOnly`, values under
/// secret-looking names (`authorization`, `api_key`, `password`, `token`, …) and any occurrence of a known
/// secret (the model API key) become ``placeholder``. Applied to arguments, results and messages before
/// they are written.
public struct SecretRedactor: Sendable {
    /// What a redacted value becomes.
    public static let placeholder = "[redacted]"

    /// Exact secret strings to scrub wherever they appear (empty and very short ones are ignored).
    public let secrets: [String]

    /// A redactor that also scrubs `secrets` (e.g. the value of OPENAI_API_KEY).
    public init(secrets: [String] = []) {
        self.secrets = secrets.filter { $0.count >= 8 }
    }

    /// Field names whose values are secrets whatever the schema says (compared lowercased, without `-`/`_`).
    static let secretNames: Set<String> = [
        "authorization", "proxyauthorization", "apikey", "xapikey", "password", "passwd", "secret", "clientsecret",
        "token", "accesstoken", "refreshtoken", "bearer", "privatekey", "cookie", "setcookie",
    ]

    static func isSecretName(_ name: String) -> Bool {
        secretNames.contains(String(name.lowercased().filter { $0 != "_" && $0 != "-" }))
    }

    /// `value` with `writeOnly` fields of `schema` (followed through `properties`, `items` and
    /// `additionalProperties`) and secret-named fields replaced, and known secrets scrubbed from strings.
    public func redact(_ value: JSONValue, schema: JSONValue? = nil) -> JSONValue {
        if let schema, schema["writeOnly"]?.boolValue == true { return .string(Self.placeholder) }
        switch value {
        case .object(let object):
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(object.count)
            for (key, member) in object {
                if Self.isSecretName(key) {
                    members.append((key, .string(Self.placeholder)))
                    continue
                }
                let sub = schema?["properties"]?[key] ?? schema?["additionalProperties"]
                members.append((key, redact(member, schema: sub?.objectValue != nil ? sub : nil)))
            }
            return .object(JSONObject(members))
        case .array(let items):
            let sub = schema?["items"]
            return .array(items.map { redact($0, schema: sub?.objectValue != nil ? sub : nil) })
        case .string(let text):
            return .string(scrub(text))
        default:
            return value
        }
    }

    /// `text` with every known secret and every `Bearer …` credential replaced.
    public func scrub(_ text: String) -> String {
        var result = text
        // strstr: the common case (nothing to scrub) must cost next to nothing on every call.
        for secret in secrets where Self.contains(result, secret) {
            result = result.replacingAll(secret, with: Self.placeholder)
        }
        if Self.contains(result, "earer") || Self.contains(result, "EARER") {
            result = result.replacing(/(?i)bearer\s+[A-Za-z0-9._~+\/=-]{8,}/, with: "Bearer " + Self.placeholder)
        }
        return result
    }
}

extension SecretRedactor {
    /// Whether `text` contains `part` (bytes compared by the C library).
    static func contains(_ text: String, _ part: String) -> Bool {
        text.withCString { haystack in part.withCString { needle in strstr(haystack, needle) != nil } }
    }
}

extension String {
    /// `self` with every occurrence of `target` replaced.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var output = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            output += rest[..<range.lowerBound]
            output += replacement
            rest = rest[range.upperBound...]
        }
        return output + rest
    }
}
