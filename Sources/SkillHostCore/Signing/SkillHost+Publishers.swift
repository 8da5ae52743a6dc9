extension SkillHost {
    /// Trusts the minisign public key in `keyFile` to sign plugin packages (registry `publishers`), under
    /// `name` (default: the file's comment when it is not minisign's own, else the key id).
    /// - Returns: the publisher as recorded, and whether the key was trusted before.
    /// - Throws: ``HostError`` `invalidArguments` for a file that is no minisign public key, `notFound`,
    ///   `registry`.
    @discardableResult
    public func trustPublisher(keyFile: String, name: String? = nil) throws(HostError) -> (publisher: TrustedPublisher, replaced: Bool) {
        let bytes = try Posix.readFile(atPath: keyFile, limit: 64 << 10)
        let key = try MinisignPublicKey(parsing: String(decoding: bytes, as: UTF8.self), source: keyFile)
        let fallback = key.comment.flatMap { comment in
            comment.hasPrefix("minisign public key") || comment.isEmpty ? nil : comment
        } ?? key.id
        let publisher = TrustedPublisher(key: key, name: name ?? fallback)
        var replaced = false
        try registryStore.update { registry in
            replaced = registry.publisher(id: key.id) != nil
            registry.setPublisher(key, name: publisher.name)
        }
        return (publisher, replaced)
    }

    /// Stops trusting the key with this id (plugins it signed stay installed; `list` shows them unverified).
    /// - Throws: ``HostError`` `notFound` for a key that was not trusted, `registry`.
    @discardableResult
    public func untrustPublisher(id: String) throws(HostError) -> TrustedPublisher {
        let id = MinisignText.normalizedKeyID(id) ?? id.uppercased()
        var removed: TrustedPublisher?
        try registryStore.update { registry in
            removed = registry.publisher(id: id)
            registry.removePublisher(id: id)
        }
        guard let removed else {
            throw HostError(.notFound, "no trusted key \(id); run 'skillhost keys list' to see the trusted keys")
        }
        return removed
    }
}
