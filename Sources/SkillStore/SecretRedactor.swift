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

    /// The environment variables whose values are secrets scrubbed everywhere: the model providers' API keys.
    public static let secretVariables = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]

    /// The redactor every front end records with: it also scrubs the values of ``secretVariables`` in
    /// `environment`.
    public static func standard(environment: [String: String]) -> SecretRedactor {
        SecretRedactor(secrets: secretVariables.compactMap { environment[$0] })
    }

    /// Field names whose values are secrets whatever the schema says (compared lowercased, without `-`/`_`).
    static let secretNames: Set<String> = [
        "authorization", "proxyauthorization", "apikey", "xapikey", "password", "passwd", "secret", "clientsecret",
        "token", "accesstoken", "refreshtoken", "bearer", "privatekey", "cookie", "setcookie",
    ]

    /// ``secretNames`` as bytes, for the allocation-free ``isSecretName(_:)``.
    static let secretNameBytes: [[UInt8]] = secretNames.map { Array($0.utf8) }
    /// The longest secret name (a longer field name, less `-`/`_`, cannot be one).
    static let longestSecretName = secretNameBytes.map(\.count).max() ?? 0

    /// Whether `name`, ASCII-lowercased and without `-`/`_`, is one of ``secretNames``. Allocates nothing:
    /// it runs for every field of every argument and result.
    static func isSecretName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            // 18 bytes cover the longest name ("proxyauthorization"); a longer field name is no secret name.
            var folded: (UInt64, UInt64, UInt64) = (0, 0, 0)
            var count = 0
            let fits = withUnsafeMutableBytes(of: &folded) { buffer -> Bool in
                for byte in bytes where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
                    guard count < longestSecretName else { return false }
                    buffer[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                    count += 1
                }
                return true
            }
            guard fits, count > 0 else { return false }
            return withUnsafeBytes(of: &folded) { buffer in
                secretNameBytes.contains { secret in
                    secret.count == count && secret.withUnsafeBytes { memcmp($0.baseAddress!, buffer.baseAddress!, count) == 0 }
                }
            }
        }
    }

    /// `value` with `writeOnly` fields of `schema` (followed through `properties`, `items` and
    /// `additionalProperties`) and secret-named fields replaced, and known secrets scrubbed from strings.
    public func redact(_ value: JSONValue, schema: JSONValue? = nil) -> JSONValue {
        // The common case: nothing to redact. Checked without building anything, and the value is kept whole.
        guard needsRedaction(value, schema: schema) else { return value }
        return rebuilt(value, schema: schema)
    }

    /// Whether ``redact(_:schema:)`` would change anything in `value` (allocates nothing for values it
    /// leaves alone).
    func needsRedaction(_ value: JSONValue, schema: JSONValue?) -> Bool {
        if let schema, schema["writeOnly"]?.boolValue == true { return true }
        switch value {
        case .object(let object):
            for (key, member) in object {
                if Self.isSecretName(key) { return true }
                let sub = schema?["properties"]?[key] ?? schema?["additionalProperties"]
                if needsRedaction(member, schema: sub?.objectValue != nil ? sub : nil) { return true }
            }
            return false
        case .array(let items):
            let sub = schema?["items"]
            let itemSchema = sub?.objectValue != nil ? sub : nil
            return items.contains { needsRedaction($0, schema: itemSchema) }
        case .string(let text):
            return needsScrubbing(text)
        default:
            return false
        }
    }

    /// Whether ``scrub(_:)`` would change `text` (or might: a `bearer` word). The text's bytes are searched
    /// in place for each (it runs for every string of every argument and result).
    func needsScrubbing(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { haystack in
            for secret in secrets {
                var secret = secret
                if secret.withUTF8({ Self.contains(haystack, UnsafeRawBufferPointer($0)) }) { return true }
            }
            return Self.contains(haystack, Self.bearerParts.0) || Self.contains(haystack, Self.bearerParts.1)
        }
    }

    /// What ``scrub(_:)`` looks for before it looks for a `Bearer …` credential.
    private static let bearerParts: (StaticString, StaticString) = ("earer", "EARER")

    /// `value` redacted, rebuilt member by member.
    private func rebuilt(_ value: JSONValue, schema: JSONValue?) -> JSONValue {
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
    /// Whether `text` contains `part`: its bytes, the whole text (past any NUL character in it, where a C
    /// string would end), found with the C library's `memchr` and `memcmp` and without making C strings.
    static func contains(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { haystack in part.withUTF8 { contains(haystack, UnsafeRawBufferPointer($0)) } }
    }

    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        contains(haystack, UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
    }

    /// Whether the bytes `needle` occur in `haystack`.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress, let wanted = needle.baseAddress else { return false }
        let last = haystack.count - needle.count
        var offset = 0
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
            let at = hit.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
            if memcmp(base + at, wanted, needle.count) == 0 { return true }
            offset = at + 1
        }
        return false
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
