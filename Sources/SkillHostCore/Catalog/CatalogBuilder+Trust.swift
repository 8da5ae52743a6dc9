extension CatalogBuilder {
    /// Marks `denied` every usable plugin that the trust check before each call would refuse, with that
    /// check's message, so `list` shows what `call` will do. Costs a `stat` per plugin while files are
    /// unchanged (digests are remembered in the cache folder).
    func applyTrust(_ records: inout [PluginRecord]) {
        let verifier = TrustVerifier(digestCache: DigestCacheFile(directory: paths.cache))
        let policy = registry.trustPolicy
        for index in records.indices where records[index].status == .ok {
            let record = records[index]
            do {
                _ = try verifier.verify(
                    pluginID: record.id, pluginPath: record.path, pinnedSHA256: record.settings.sha256, policy: policy,
                    extraFolders: [paths.plugins])
            } catch {
                records[index].status = .denied
                records[index].error = error.message
            }
        }
    }
}
