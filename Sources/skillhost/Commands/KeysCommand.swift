import SkillHostCore
import SkillJSON

/// `skillhost keys trust|untrust|list|generate`: the publishers whose signed plugin packages install.
enum KeysCommand: Command {
    static let name = "keys"
    static let summary = "trust publishers' signing keys (minisign format), list them, or make a key to sign with"
    static let help = """
        usage: skillhost keys trust FILE.pub [--name NAME]
               skillhost keys untrust KEY_ID
               skillhost keys list [--json]
               skillhost keys generate [--secret FILE] [--public FILE] [--force]

        Plugin packages (.skillpkg, 'skillhost pack') are signed with Ed25519 keys in minisign's format, so a
        key made by 'minisign -G' works, and 'minisign -V' checks a package's signature too.

          trust      trust the public key in FILE.pub (registry "publishers"): 'skillhost install' accepts
                     packages it signed and records it as their publisher. NAME is what list and inspect call
                     it (default: the file's comment, else the key id).
          untrust    stop trusting a key; plugins it signed stay installed and show as unverified.
          list       the trusted keys: id, name, key.
          generate   make a new key pair to sign your packages with: the secret key (no password; mode 0600;
                     default ~/.minisign/minisign.key, as minisign) and the public key to give your users
                     (default ./minisign.pub). Protect the secret key with a password: 'minisign -C -s FILE'.

        Exit codes: \(ExitCode.notFound) unknown key id, \(ExitCode.invalidArguments) a file that is no minisign key or exists (generate without
        --force), \(ExitCode.registryError) registry malformed.
        """

    static func run(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(
            arguments, flags: ["--json", "--force"], options: ["--name", "--secret", "--public"])
        guard let action = parsed.positionals.first else { throw UsageError("expected trust, untrust, list or generate") }
        let rest = Array(parsed.positionals.dropFirst())
        switch action {
        case "trust":
            guard rest.count == 1 else { throw UsageError("expected one FILE.pub") }
            let (publisher, replaced) = try HostOptions.host(parsed).trustPublisher(keyFile: rest[0], name: parsed.options["--name"])
            print("\(replaced ? "still trusting" : "trusting") \(publisher.label) to sign plugin packages")
        case "untrust":
            guard rest.count == 1 else { throw UsageError("expected one KEY_ID") }
            let publisher = try HostOptions.host(parsed).untrustPublisher(id: rest[0])
            print("no longer trusting \(publisher.label)")
        case "list":
            guard rest.isEmpty else { throw UsageError("unexpected argument '\(rest[0])'") }
            let publishers = try HostOptions.host(parsed).registryStore.read().publishers
            if parsed.has("--json") {
                HostOptions.printJSON(.array(publishers.map { ["id": .string($0.key.id), "name": .string($0.name), "key": .string($0.key.base64)] }))
            } else if publishers.isEmpty {
                print("No trusted keys: trust a publisher's key with 'skillhost keys trust FILE.pub'.")
            } else {
                for publisher in publishers { print("\(publisher.key.id)  \(publisher.name)  \(publisher.key.base64)") }
            }
        case "generate":
            guard rest.isEmpty else { throw UsageError("unexpected argument '\(rest[0])'") }
            try generate(parsed)
        default:
            throw UsageError("unknown keys action '\(action)'; use trust, untrust, list or generate")
        }
        return ExitCode.success
    }

    private static func generate(_ parsed: ParsedArguments) throws {
        let home = Posix.environment()["HOME"] ?? "."
        let secretPath = parsed.options["--secret"] ?? home + "/.minisign/minisign.key"
        let publicPath = parsed.options["--public"] ?? "minisign.pub"
        let key = try MinisignSecretKey.generate()
        try key.write(secretKeyTo: secretPath, publicKeyTo: publicPath, replacing: parsed.has("--force"))
        print("made key \(key.publicKey.id): secret key \(secretPath) (keep it private), public key \(publicPath) (give it to your users)")
        print("sign: skillhost pack DIR --key \(secretPath)")
        print("users: skillhost keys trust \(publicPath)")
    }
}
