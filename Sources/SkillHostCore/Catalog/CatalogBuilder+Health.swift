extension CatalogBuilder {
    /// Marks plugins whose workers crashed repeatedly (``PluginHealthStore`` in the cache folder) as
    /// `broken` with the crash reason, until the file changes; with `reset` (rescan) their history is
    /// forgotten instead, giving them a fresh chance.
    func applyHealth(_ records: inout [PluginRecord], reset: Bool) throws(HostError) {
        let health = PluginHealthStore(cacheDirectory: paths.cache)
        for index in records.indices where records[index].manifest != nil {
            let record = records[index]
            if reset {
                try health.clear(pluginID: record.id)
                continue
            }
            guard let reason = health.brokenReason(pluginID: record.id, path: record.path) else { continue }
            records[index].status = .broken
            records[index].error = "\(record.path): \(reason); fix the plugin, then run 'skillhost rescan'"
            for skill in records[index].skills.indices { records[index].skills[skill].enabled = false }
        }
    }
}
