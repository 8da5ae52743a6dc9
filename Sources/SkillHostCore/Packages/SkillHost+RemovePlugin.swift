extension SkillHost {
    /// Uninstalls the plugin `id`: deletes its file from the plugins folder, with the signature an install
    /// kept beside it, under the install lock. Its registry entry stays (switches, settings), so installing
    /// it again restores them.
    /// - Returns: the record of the plugin as it was.
    /// - Throws: ``HostError`` `notFound` for an unknown id, `io`.
    @discardableResult
    public func removePlugin(_ id: String) throws(HostError) -> PluginRecord {
        let catalog = try catalog()
        guard let plugin = catalog.plugin(id) else {
            throw HostError(.notFound, "no plugin \"\(Identifier.normalize(id))\"; \(catalog.didYouMean(id, among: [.plugin]))run 'skillhost list' to see the plugin ids")
        }
        let lock = try Posix.lockExclusively(paths.plugins + "/.install.lock")
        defer { Posix.unlock(lock) }
        for file in [plugin.path] + InstalledSignature.paths(of: plugin.path) where Posix.exists(file) {
            try Posix.hostError { () throws(Posix.Failure) in try Posix.removeFile(file) }
        }
        return plugin
    }
}
