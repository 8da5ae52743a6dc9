extension SkillHost {
    /// What ``trust(pluginID:)`` or ``untrust(pluginID:)`` recorded.
    public struct TrustChange: Sendable, Equatable {
        /// The normalized plugin id.
        public var pluginID: String
        /// The plugin file.
        public var path: String
        /// The digest now pinned; nil after `untrust`.
        public var sha256: String?
        /// The digest pinned before; nil when there was none.
        public var previousSHA256: String?
    }

    /// Pins the SHA-256 of the plugin's file in the registry (`plugins.<id>.sha256`), one locked atomic
    /// update: from now on the file runs only while it has this digest.
    /// - Throws: ``HostError`` `notFound` for an unknown id, `denied` when the file or its folder is writable
    ///   by others (trusting it would be pointless), `io`, or `registry`.
    @discardableResult
    public func trust(pluginID: String) throws(HostError) -> TrustChange {
        let plugin = try trustedPlugin(pluginID)
        try FilePermissionCheck.verify(pluginPath: plugin.path, pluginID: plugin.id, extraFolders: [paths.plugins])
        let digest = try FileDigest.sha256(ofFile: plugin.path)
        try registryStore.update { registry in registry.setPluginSHA256(digest, plugin: plugin.id) }
        return TrustChange(pluginID: plugin.id, path: plugin.path, sha256: digest, previousSHA256: plugin.settings.sha256)
    }

    /// Removes the pinned digest of a plugin (it becomes untrusted; the `trust` policy decides whether it runs).
    /// - Throws: ``HostError`` `notFound` for an unknown id, or `registry`.
    @discardableResult
    public func untrust(pluginID: String) throws(HostError) -> TrustChange {
        let plugin = try trustedPlugin(pluginID)
        try registryStore.update { registry in registry.setPluginSHA256(nil, plugin: plugin.id) }
        return TrustChange(pluginID: plugin.id, path: plugin.path, sha256: nil, previousSHA256: plugin.settings.sha256)
    }

    private func trustedPlugin(_ pluginID: String) throws(HostError) -> PluginRecord {
        let id = Identifier.normalize(pluginID)
        let catalog = try catalog()
        guard let plugin = catalog.plugin(id) else {
            throw HostError(.notFound, "no plugin \"\(id)\"; \(catalog.didYouMean(id, among: [.plugin]))run 'skillhost list' to see the plugin ids", pluginID: id)
        }
        return plugin
    }
}
