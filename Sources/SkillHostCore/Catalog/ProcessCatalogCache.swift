import Synchronization

/// The last catalog this process built, reused while its inputs are unchanged (``CatalogInputs``: one
/// `stat` per input, no reads), so `invoke` and `enabledSkills()` do not read the registry, the scan cache
/// and the crash history again for every call. An `enable`, `disable` or `trust` from another process, or
/// a plugin file replaced, added or removed, changes an input, and the next call builds afresh.
///
/// Builds are serialized: when many calls find the catalog stale at once, one builds and the others take
/// its result. Thread-safe.
final class ProcessCatalogCache: Sendable {
    /// A catalog with the inputs it was built from and an index of its skills. A class: every call takes
    /// the current one, and copying a struct of its parts out of the lock retained each of them.
    final class Snapshot: Sendable {
        let catalog: Catalog
        let inputs: CatalogInputs
        /// Counts builds in this process: a compiled schema made under the same generation is current.
        let generation: Int
        private let routes: [String: SkillRoute]
        private let stamps: [String: CatalogInputs.Stamp]

        /// Numbers this build among all builds in the process (of every host): the trust gate keys its
        /// verdicts by it.
        let build: Int

        init(catalog: Catalog, inputs: CatalogInputs, generation: Int, build: Int) {
            self.catalog = catalog
            self.inputs = inputs
            self.generation = generation
            self.build = build
            let stamps = Dictionary(zip(inputs.paths, inputs.stamps), uniquingKeysWith: { first, _ in first })
            var routes: [String: SkillRoute] = [:]
            for plugin in catalog.plugins {
                for skill in plugin.skills where routes[skill.id] == nil {
                    routes[skill.id] = SkillRoute(skill: skill, plugin: plugin, stamp: stamps[plugin.path])
                }
            }
            self.routes = routes
            self.stamps = stamps
        }

        /// The status of an input (a plugin file) when this catalog was built; nil for a path it did not read.
        func stamp(of path: String) -> CatalogInputs.Stamp? { stamps[path] }

        /// What a call of the skill with this normalized id needs (see ``SkillRoute``; the first by path, like
        /// ``Catalog/skill(_:)``); nil for an unknown id.
        func route(_ id: String) -> SkillRoute? { routes[id] }
    }

    /// The last snapshot, and the call batch in which its inputs were last found unchanged (0: none).
    private let last = Mutex<(snapshot: Snapshot, checkedInBatch: UInt64)?>(nil)
    private let building = Mutex(0)
    /// Builds in this process, for ``Snapshot/build``.
    private static let builds = Atomic<Int>(0)
    /// The current call batch (``beginBatch()``); 0 while nobody uses batches.
    private let batch = Atomic<UInt64>(0)

    init() {}

    /// Starts a call batch: the first ``current(paths:build:)`` after this looks at the inputs, and later
    /// ones reuse what it found until the next batch begins. A server begins one each time it has read new
    /// requests, so every request is still checked against the files as they were after it arrived (an
    /// `enable`, `disable`, `trust` or a replaced file that finished before a request was sent applies to
    /// it), at one look per read instead of one per call. Without batches every call looks.
    func beginBatch() { batch.wrappingAdd(1, ordering: .sequentiallyConsistent) }

    /// The last snapshot when its inputs are unchanged, else one built now with `build`.
    func current(
        paths: HostPaths, build: () throws(HostError) -> Catalog
    ) throws(HostError) -> Snapshot {
        // Read before any look at the files: a look taken after this may stand for the whole batch.
        let batchNow = batch.load(ordering: .sequentiallyConsistent)
        if let snapshot = currentSnapshot(batch: batchNow) { return snapshot }
        return try building.withLock { (generation: inout Int) throws(HostError) -> Snapshot in
            // Another caller may have rebuilt while this one waited.
            if let snapshot = currentSnapshot(batch: batchNow) { return snapshot }
            return try rebuild(paths: paths, batch: batchNow, generation: &generation, build: build)
        }
    }

    /// Forgets the snapshot (the next call builds).
    func invalidate() { last.withLock { $0 = nil } }

    /// The last snapshot if it was checked in `batch`, or its inputs are unchanged now; nil otherwise.
    private func currentSnapshot(batch: UInt64) -> Snapshot? {
        guard let (snapshot, checked) = last.withLock({ $0 }) else { return nil }
        if batch != 0, checked == batch { return snapshot }
        guard snapshot.inputs.isCurrent else { return nil }
        if batch != 0 {
            last.withLock { entry in
                if entry?.snapshot.build == snapshot.build { entry?.checkedInBatch = batch }
            }
        }
        return snapshot
    }

    private func rebuild(
        paths: HostPaths, batch: UInt64, generation: inout Int, build: () throws(HostError) -> Catalog
    ) throws(HostError) -> Snapshot {
        let before = CatalogInputs.listing(paths)
        let catalog = try build()
        generation += 1
        let after = before.current()
        let snapshot = Snapshot(
            catalog: catalog, inputs: after, generation: generation, build: Self.builds.wrappingAdd(1, ordering: .relaxed).newValue)
        // An input that changed during the build may or may not be in this catalog: keep it for this
        // call only, so the next one builds again.
        last.withLock { $0 = before == after ? (snapshot, batch) : nil }
        return snapshot
    }
}
