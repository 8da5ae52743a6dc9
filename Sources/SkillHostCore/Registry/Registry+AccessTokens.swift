import SkillJSON

/// A bearer token that lets an HTTP client use `skillhost mcp --http` (docs/mcp.md, "Authorization"). The
/// registry keeps only its SHA-256 (`access_tokens.<name>`), so a copy of the registry gives nobody access.
public struct AccessToken: Sendable, Equatable {
    /// The name given at creation (`skillhost token create NAME`).
    public var name: String
    /// SHA-256 of the token, 64 lowercase hex digits.
    public var sha256: String
    /// What it may call: `read` (read skills only) or `write` (write and dangerous skills too, which still
    /// need approval).
    public var scope: Permission
    /// The resource it was made for (the server's public URL); nil: any server that reads this registry.
    public var audience: String?
    /// When it was made, Unix seconds.
    public var created: Int64

    /// A token entry.
    public init(name: String, sha256: String, scope: Permission, audience: String? = nil, created: Int64) {
        self.name = name
        self.sha256 = sha256
        self.scope = scope
        self.audience = audience
        self.created = created
    }

    /// A new secret: `skh_` and 43 characters of base64url (256 random bits).
    public static func generateSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "skh_" + Base64URL.encode(bytes)
    }

    /// The hash the registry stores for a secret.
    public static func hash(_ secret: String) -> String { FileDigest.sha256(of: Array(secret.utf8)) }

    /// Whether a token name is usable: 1–64 of `A-Za-z0-9._-`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || "._-".utf8.contains($0) }
    }
}

extension Registry {
    /// The access tokens (`access_tokens`), sorted by name; entries that are not well-formed are skipped
    /// (they grant nothing).
    public var accessTokens: [AccessToken] {
        guard case .object(let tokens)? = document["access_tokens"] else { return [] }
        return tokens.compactMap { name, value -> AccessToken? in
            guard case .object(let entry) = value, let hash = entry["sha256"]?.stringValue, hash.utf8.count == 64,
                let scope = entry["scope"]?.stringValue.flatMap(Permission.init(rawValue:)), scope != .dangerous
            else { return nil }
            var created: Int64 = 0
            if case .int(let value)? = entry["created"] { created = value }
            return AccessToken(name: name, sha256: hash, scope: scope, audience: entry["audience"]?.stringValue, created: created)
        }.sorted { $0.name < $1.name }
    }

    /// Adds or replaces a token.
    public mutating func setAccessToken(_ token: AccessToken) {
        var tokens = document["access_tokens"]?.objectValue ?? JSONObject()
        var entry: JSONObject = ["sha256": .string(token.sha256), "scope": .string(token.scope.rawValue), "created": .int(token.created)]
        if let audience = token.audience { entry["audience"] = .string(audience) }
        tokens[token.name] = .object(entry)
        setDocumentValue(.object(tokens), forKey: "access_tokens")
    }

    /// Removes a token; false when there is none of that name.
    @discardableResult
    public mutating func removeAccessToken(named name: String) -> Bool {
        guard var tokens = document["access_tokens"]?.objectValue, tokens[name] != nil else { return false }
        tokens[name] = nil
        setDocumentValue(.object(tokens), forKey: "access_tokens")
        return true
    }
}
