import Synchronization

/// The last catalog this process built, reused while its inputs are unchanged (``CatalogInputs``: one
/// `stat` per input, no reads), so `invoke` and `enabledSkills()` do not read the registry, the scan cache
/// and the crash history again for every call. An `enable`, `disable` or `trust` from another process, or
/// a plugin file replaced, added or removed, changes an input, and the next call builds afresh.
///
/// Builds are serialized: when many calls find the catalog stale at once, one builds and the others take
/// its result. Thread-safe.
final class ProcessCatalogCache: Sendable {
    /// A catalog with the inputs it was built from and an index of its skills.
    struct Snapshot: Sendable {
        let catalog: Catalog
        let inputs: CatalogInputs
        /// Counts builds in this process: a compiled schema made under the same generation is current.
        let generation: Int
        private let skillIndex: [String: (plugin: Int, skill: Int)]
        private let stamps: [String: CatalogInputs.Stamp]

        init(catalog: Catalog, inputs: CatalogInputs, generation: Int) {
            self.catalog = catalog
            self.inputs = inputs
            self.generation = generation
            var index: [String: (plugin: Int, skill: Int)] = [:]
            for (pluginIndex, plugin) in catalog.plugins.enumerated() {
                for (skillIndex, skill) in plugin.skills.enumerated() where index[skill.id] == nil {
                    index[skill.id] = (pluginIndex, skillIndex)
                }
            }
            self.skillIndex = index
            self.stamps = Dictionary(zip(inputs.paths, inputs.stamps), uniquingKeysWith: { first, _ in first })
        }

        /// The status of an input (a plugin file) when this catalog was built; nil for a path it did not read.
        func stamp(of path: String) -> CatalogInputs.Stamp? { stamps[path] }

        /// The skill with this normalized id and its plugin (the first by path, like ``Catalog/skill(_:)``).
        func skill(_ id: String) -> (skill: SkillDescription, plugin: PluginRecord)? {
            guard let (pluginIndex, skillIndex) = skillIndex[id] else { return nil }
            let plugin = catalog.plugins[pluginIndex]
            return (plugin.skills[skillIndex], plugin)
        }
    }

    private let last = Mutex<Snapshot?>(nil)
    private let building = Mutex(0)

    init() {}

    /// The last snapshot when its inputs are unchanged, else one built now with `build`.
    func current(
        paths: HostPaths, build: () throws(HostError) -> Catalog
    ) throws(HostError) -> Snapshot {
        if let snapshot = last.withLock({ $0 }), snapshot.inputs.isCurrent { return snapshot }
        return try building.withLock { (generation: inout Int) throws(HostError) -> Snapshot in
            // Another caller may have rebuilt while this one waited.
            if let snapshot = last.withLock({ $0 }), snapshot.inputs.isCurrent { return snapshot }
            return try rebuild(paths: paths, generation: &generation, build: build)
        }
    }

    /// Forgets the snapshot (the next call builds).
    func invalidate() { last.withLock { $0 = nil } }

    private func rebuild(
        paths: HostPaths, generation: inout Int, build: () throws(HostError) -> Catalog
    ) throws(HostError) -> Snapshot {
        let before = CatalogInputs.listing(paths)
        let catalog = try build()
        generation += 1
        let after = before.current()
        let snapshot = Snapshot(catalog: catalog, inputs: after, generation: generation)
        // An input that changed during the build may or may not be in this catalog: keep it for this
        // call only, so the next one builds again.
        last.withLock { $0 = before == after ? snapshot : nil }
        return snapshot
    }
}
