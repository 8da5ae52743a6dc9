/// How a package's `package.json` signature stands against the keys this host trusts: the user's
/// (registry `publishers`, `skillhost keys trust`) and those the administrator's policy allows.
public enum PackageSignature: Sendable, Equatable {
    /// Signed by a trusted key, and the signature verifies.
    case verified(TrustedPublisher)
    /// No signature.
    case unsigned
    /// Signed by a key nobody here trusts (its id).
    case unknownKey(String)
    /// Signed by a trusted key, but the signature does not verify (why).
    case invalid(TrustedPublisher, String)

    /// The status of `signature` over `index` against `keys`.
    static func check(_ index: [UInt8], signature: MinisignSignature?, keys: [TrustedPublisher]) -> PackageSignature {
        guard let signature else { return .unsigned }
        guard let publisher = keys.first(where: { $0.key.keyNumber == signature.keyNumber }) else {
            return .unknownKey(signature.keyID)
        }
        if let problem = signature.problem(verifying: index, with: publisher.key) { return .invalid(publisher, problem) }
        return .verified(publisher)
    }

    /// The keys a host trusts: the registry's publishers, then those the policy allows.
    static func trustedKeys(registry: Registry, policy: AdminPolicy) -> [TrustedPublisher] {
        registry.publishers + (policy.allowedPublishers?.keys ?? []).filter { key in
            !registry.publishers.contains { $0.key == key.key }
        }
    }

    /// The publisher whose signature verified, if any.
    public var publisher: TrustedPublisher? {
        if case .verified(let publisher) = self { return publisher }
        return nil
    }

    /// Why a package with this signature is refused without `--allow-unsigned` (nil when verified): one
    /// line naming `package` and the fix.
    func refusal(package name: String) -> String? {
        switch self {
        case .verified:
            return nil
        case .unsigned:
            return "\(name) is not signed; not installed (ask the publisher for a signed package, or install it anyway with --allow-unsigned: then its SHA-256 is pinned and nothing vouches for it)"
        case .unknownKey(let id):
            return "\(name) is signed by key \(id), which you do not trust; not installed (if you trust its publisher, get their public key and run 'skillhost keys trust THEIR.pub', then install again; or pass --allow-unsigned)"
        case .invalid(let publisher, let reason):
            return "\(name): the signature by \(publisher.label) does not verify: \(reason); not installed (get the package again from its publisher; --allow-unsigned installs it unverified)"
        }
    }
}
