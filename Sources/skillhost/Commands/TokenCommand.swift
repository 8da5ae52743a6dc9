import SkillHostCore
import SkillJSON

/// `skillhost token create NAME [--scope read|write] [--audience URL]`, `token revoke NAME`, `token list`:
/// the bearer tokens of `skillhost mcp --http`, kept hashed in the registry.
enum TokenCommand: Command {
    static let name = "token"
    static let summary = "create, list and revoke the bearer tokens of 'skillhost mcp --http'"
    static let help = """
        usage: skillhost token create NAME [--scope read|write] [--audience URL]
               skillhost token revoke NAME
               skillhost token list [--json]

        An MCP client reaches 'skillhost mcp --http' only with a bearer token ('Authorization: Bearer
        <token>'). 'create' makes one, stores only its SHA-256 in the registry (access_tokens.NAME) and
        prints the token once, as the last line of its output: keep it, it cannot be shown again.
        Creating an existing NAME replaces its token. 'revoke' removes it; servers that read this registry
        refuse it from their next request on.

        Options:
          --scope read|write   read: read skills only (the default); write: write and dangerous skills too
                               (they still need approval: --allow-writes, the registry, or the client's user)
          --audience URL       the server's public endpoint URL (its --resource); other servers refuse it
          --json               (list) print [{"name","scope","audience","created"}]

        Exit codes: 2 usage, 3 no token NAME (revoke), 12 registry malformed or not writable.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, flags: ["--json"], options: ["--scope", "--audience"])
        guard let action = parsed.positionals.first else { throw UsageError("expected create, revoke or list") }
        let store = RegistryStore(path: HostOptions.paths(parsed).registry)
        switch action {
        case "create":
            guard parsed.positionals.count == 2 else { throw UsageError("token create takes one NAME") }
            let name = parsed.positionals[1]
            guard AccessToken.isValidName(name) else {
                throw UsageError("token name \"\(name)\" is not 1-64 of A-Z a-z 0-9 . _ -; pick a name like laptop-1")
            }
            let scopeText = parsed.options["--scope"] ?? "read"
            guard let scope = Permission(rawValue: scopeText), scope != .dangerous else {
                throw UsageError("--scope must be read or write, not \(scopeText)")
            }
            let audience = parsed.options["--audience"]
            if let audience, !(audience.hasPrefix("https://") || audience.hasPrefix("http://")) {
                throw UsageError("--audience must be the server's endpoint URL (https://host/mcp), not \(audience)")
            }
            let secret = AccessToken.generateSecret()
            var replaced = false
            try store.update { registry in
                replaced = registry.accessTokens.contains { $0.name == name }
                registry.setAccessToken(AccessToken(
                    name: name, sha256: AccessToken.hash(secret), scope: scope, audience: audience, created: Int64(Posix.unixSeconds())))
            }
            print("\(replaced ? "replaced" : "created") token \(name) (scope \(scope.rawValue)\(audience.map { ", audience \($0)" } ?? "")) in \(store.path); it is shown once:")
            print(secret)
            return ExitCode.success
        case "revoke":
            guard parsed.positionals.count == 2 else { throw UsageError("token revoke takes one NAME") }
            let name = parsed.positionals[1]
            var removed = false
            try store.update { registry in removed = registry.removeAccessToken(named: name) }
            guard removed else {
                let names = try store.read().accessTokens.map(\.name)
                Posix.writeAll(2, Array("error: no token \(name) in \(store.path); \(names.isEmpty ? "there are none" : "tokens: " + names.joined(separator: ", "))\n".utf8))
                return ExitCode.notFound
            }
            print("revoked token \(name)")
            return ExitCode.success
        case "list":
            guard parsed.positionals.count == 1 else { throw UsageError("token list takes no NAME") }
            let tokens = try store.read().accessTokens
            if parsed.has("--json") {
                HostOptions.printJSON(.array(tokens.map { token in
                    ["name": .string(token.name), "scope": .string(token.scope.rawValue),
                     "audience": token.audience.map(JSONValue.string) ?? .null, "created": .int(token.created)]
                }))
            } else if tokens.isEmpty {
                print("no tokens; create one with 'skillhost token create NAME'")
            } else {
                for token in tokens { print("\(token.name)\t\(token.scope.rawValue)\t\(token.audience ?? "any server")") }
            }
            return ExitCode.success
        default:
            throw UsageError("unknown token action \"\(action)\"; use create, revoke or list")
        }
    }
}
