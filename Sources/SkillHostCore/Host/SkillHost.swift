import Foundation
import SkillJSON
import Synchronization

/// The host library's facade for the CLI and the agent: the catalog of plugins, the registry's decisions,
/// and calling skills (docs/architecture.md, "Calling a skill"). Thread-safe.
public final class SkillHost: Sendable {
    /// Where plugins, registry, cache and data live.
    public let paths: HostPaths
    /// The `skillhost` executable started as the scanner child and worker.
    public let helperExecutable: String
    /// The registry file.
    public let registryStore: RegistryStore
    /// The registry's MCP servers, read again only when the registry changed (`SkillHost+MCPServers.swift`).
    let mcpServerList = MCPServerList()
    /// The scan cache.
    public let scanCache: ScanCache
    /// Scans changed files through the child.
    public let scanner: PluginScanner
    /// Makes executors by isolation mode.
    public let executorFactory: ExecutorFactory
    /// Pre-call checks (trust, file permissions, rate limits), in order.
    public let gates: [any CallGate]
    /// Where the host's warnings and notices for a person go.
    public let diagnostics: DiagnosticSink
    /// Where what plugins write to stderr goes, line by line and made safe for a terminal.
    public let pluginOutput: PluginOutputSink

    /// By isolation mode and path, with the status of the file the executor was made for.
    private let executors = Mutex<[ExecutorKey: (file: CatalogInputs.Stamp?, executor: any PluginExecutor)]>([:])
    /// A plugin file in an isolation mode (a key built per call without making a string).
    private struct ExecutorKey: Hashable {
        var mode: String
        var path: String
    }
    let validator = ArgumentValidator()
    /// ``gates`` with each ``TrustGate`` picked out once, so calls do not cast every gate every time.
    let gateKinds: [GateKind]
    private let catalogCache = ProcessCatalogCache()
    /// The data folders made by this host, by plugin id.
    let madeDataDirectories = Mutex<[String: String]>([:])
    /// Bumped whenever an executor in ``executors`` is replaced (``SkillRoute/executor`` is then stale).
    let executorGeneration = Atomic<Int>(0)
    /// Made by the first ``startSpareWorker()``.
    private let prestart = Mutex<WorkerPrestart?>(nil)

    /// - Parameters:
    ///   - helperExecutable: the `skillhost` binary (tests pass `.build/debug/skillhost`).
    ///   - executorFactory: chooses executors by the registry's `isolation`.
    ///   - gates: checks run before each call; nil for ``CallGates/standard(for:diagnostics:)`` (trust,
    ///     permissions, rate limits).
    ///   - diagnostics: where warnings for a person go (the library never prints); dropped by default.
    ///   - scanTimeout: seconds a scanner child may take per file.
    ///   - pluginOutput: where plugins' stderr goes (never the terminal unless the sink puts it there);
    ///     dropped by default.
    public init(
        paths: HostPaths, helperExecutable: String, executorFactory: ExecutorFactory = .standard,
        gates: [any CallGate]? = nil, scanTimeout: Double = 10, diagnostics: DiagnosticSink = .discard,
        pluginOutput: PluginOutputSink = .discard
    ) {
        self.diagnostics = diagnostics
        self.pluginOutput = pluginOutput
        self.paths = paths
        self.helperExecutable = helperExecutable
        self.registryStore = RegistryStore(path: paths.registry)
        self.scanCache = ScanCache(directory: paths.cache)
        self.scanner = PluginScanner(helperExecutable: helperExecutable, timeout: scanTimeout)
        self.executorFactory = executorFactory
        self.gates = gates ?? CallGates.standard(for: paths, diagnostics: diagnostics)
        self.gateKinds = self.gates.map { gate in (gate as? TrustGate).map(GateKind.trust) ?? .other(gate) }
    }

    /// A gate as ``prepare(skillID:arguments:)`` runs it.
    enum GateKind: Sendable {
        /// Checked against the catalog's look at the files (see ``TrustGate/check(_:plugin:build:stamps:)``).
        case trust(TrustGate)
        case other(any CallGate)
    }

    // MARK: - Catalog

    /// Every plugin file with status and skills: unchanged files from the cache (no plugin code runs),
    /// changed ones rescanned through the scanner child.
    /// - Throws: ``HostError`` for a malformed registry or when the scanner cannot be started.
    /// Always builds (a one-shot `list` pays nothing for reuse); see ``currentCatalog()``.
    public func catalog() throws(HostError) -> Catalog {
        try builder().build(forceRescan: false)
    }

    /// Scans every file again, ignoring the cache (`skillhost rescan`).
    @discardableResult
    public func rescan() throws(HostError) -> Catalog {
        defer { catalogCache.invalidate() }
        return try builder().build(forceRescan: true)
    }

    /// The catalog this process built last, while none of its inputs changed (one `stat` per input: the
    /// registry, the plugins folder and each plugin file, the skills folder and each skill folder, the
    /// crash history); otherwise built now like ``catalog()``. What ``prepare(skillID:arguments:)``
    /// and ``enabledSkills()`` use, so a long-lived process (MCP, chat) does not rebuild per call.
    public func currentCatalog() throws(HostError) -> Catalog {
        try currentSnapshot().catalog
    }

    /// Starts a call batch, for a long-lived server that reads requests in chunks (`skillhost mcp` calls it
    /// per read): calls from now on share one look at the catalog's inputs (one `stat` each of the registry,
    /// the plugins folder and files, the skills folders), taken by the first of them, until the next
    /// batch; the trust gate reuses the same look. Every call is still checked against the files as they
    /// were after its request arrived. Once a process has begun a batch, calls in it share looks this way;
    /// a process that never calls this looks once per call.
    public func beginCallBatch() { catalogCache.beginBatch() }

    /// The skills that may be offered to a model and called.
    public func enabledSkills() throws(HostError) -> [SkillDescription] {
        try currentCatalog().enabledSkills
    }

    func currentSnapshot() throws(HostError) -> ProcessCatalogCache.Snapshot {
        try catalogCache.current(paths: paths) { () throws(HostError) in try builder().build(forceRescan: false) }
    }

    private func builder() throws(HostError) -> CatalogBuilder {
        CatalogBuilder(paths: paths, scanner: scanner, cache: scanCache, registry: try registryStore.read())
    }

    // MARK: - Enable / disable

    /// What ``setEnabled(_:_:)`` changed.
    public struct Change: Sendable, Equatable {
        /// "plugin" or "skill".
        public var kind: String
        /// The normalized id.
        public var id: String
        /// A caveat, e.g. the skill's plugin is disabled.
        public var note: String?
    }

    /// Enables or disables plugins and skills by id (normalized), in one locked registry update.
    /// - Throws: ``HostError`` `notFound` for an id that is neither (nothing is written then).
    @discardableResult
    public func setEnabled(_ ids: [String], _ enabled: Bool) throws(HostError) -> [Change] {
        let catalog = try catalog()
        var changes: [Change] = []
        for raw in ids {
            let id = Identifier.normalize(raw)
            if let plugin = catalog.plugin(id) {
                // What the administrator's policy blocks stays blocked whatever the registry says.
                changes.append(Change(kind: "plugin", id: plugin.id, note: enabled ? plugin.policyBlock : nil))
            } else if let instruction = catalog.instruction(id) {
                let blocked = instruction.status == .denied ? instruction.error : nil
                changes.append(Change(kind: "instruction skill", id: instruction.id, note: enabled ? blocked : nil))
            } else if let (skill, plugin) = catalog.skill(id) {
                let pluginAlsoEnabled = ids.contains { Identifier.normalize($0) == plugin.id }
                let note = enabled && !plugin.enabled && !pluginAlsoEnabled
                    ? "its plugin \(plugin.id) is disabled; run 'skillhost enable \(plugin.id)' too" : nil
                let blocked = plugin.policyBlockedSkills[skill.id] ?? plugin.policyBlock
                changes.append(Change(kind: "skill", id: skill.id, note: enabled ? blocked ?? note : note))
            } else {
                throw HostError(.notFound, "no plugin or skill \"\(id)\"; \(catalog.didYouMean(id, among: [.plugin, .skill, .instruction]))run 'skillhost list' to see the ids")
            }
        }
        try registryStore.update { registry in
            for change in changes {
                if change.kind == "plugin" || change.kind == "instruction skill" {
                    registry.setPluginEnabled(change.id, enabled)
                } else if let (_, plugin) = catalog.skill(change.id) {
                    registry.setSkillEnabled(change.id, plugin: plugin.id, enabled)
                }
            }
        }
        return changes
    }

    // MARK: - Validate a file

    /// Checks one plugin file without installing it: ELF structure here, then the scanner child (load,
    /// descriptor, manifest, parameter schemas).
    public func validate(path: String) throws(HostError) -> ValidationReport {
        let path = Posix.absolutePath(path)
        _ = try Posix.status(ofPath: path)
        let outcome = try scanner.scan(path: path)
        guard outcome.status == .ok, let document = outcome.manifest else {
            let problems = outcome.problems.isEmpty ? [outcome.error ?? "\(path): unusable"] : outcome.problems
            return ValidationReport(path: path, manifest: nil, problems: problems, isBroken: outcome.status == .broken,
                                    advice: outcome.advice)
        }
        let report = ManifestValidator.check(document)
        return ValidationReport(path: path, manifest: report.manifest, problems: report.problems.map { "\(path): \($0)" },
                                isBroken: false, advice: report.advice.map { "\(path): \($0)" })
    }

    /// The executor for the plugin's file as the catalog saw it (`file`): a file replaced since gets a new
    /// executor (fresh workers load the new code) and the old one is shut down.
    func executor(for plugin: PluginRecord, file: CatalogInputs.Stamp?) throws(HostError) -> any PluginExecutor {
        let mode = plugin.settings.isolation
        let key = ExecutorKey(mode: mode.rawValue, path: plugin.path)
        if let existing = executors.withLock({ $0[key] }), existing.file == file { return existing.executor }
        var request = ExecutorFactory.Request(plugin: plugin, paths: paths, helperExecutable: helperExecutable)
        request.workerPrestart = prestart.withLock { $0 }
        request.output = pluginOutput
        request.diagnostics = diagnostics
        let made = try executorFactory.maker(for: mode)(request)
        // Another call may have made one meanwhile: keep the first, shut down what is not kept.
        let (chosen, unused) = executors.withLock { executors -> (any PluginExecutor, (any PluginExecutor)?) in
            if let existing = executors[key], existing.file == file { return (existing.executor, made) }
            let replaced = executors[key]?.executor
            executors[key] = (file, made)
            // Routes that kept the replaced executor ask again.
            executorGeneration.wrappingAdd(1, ordering: .sequentiallyConsistent)
            return (made, replaced)
        }
        if let unused { Task { await unused.shutdown() } }
        return chosen
    }

    /// Stops every executor (workers exit).
    public func shutdown() async {
        let all = executors.withLock { executors in
            defer { executors = [:] }
            return executors.values.map(\.executor)
        }
        for executor in all { await executor.shutdown() }
        // After the executors: the spare's spawning thread must outlive every worker made from it.
        // A later startSpareWorker() makes a new holder (this one's thread ends now).
        let holder = prestart.withLock { current in
            defer { current = nil }
            return current
        }
        await holder?.shutdown()
        // The workers are gone: their last stderr lines reach the sink before the process ends.
        PluginOutputCollector.shared.finishShownOutput(within: 0.5)
    }

    /// The process id of the spare worker waiting to be adopted, if any.
    package var spareWorkerPID: Int32? { prestart.withLock { $0 }?.sparePID }

    /// Starts a worker process now, before the call that needs it is checked, so that its start-up overlaps
    /// the catalog, trust and permission gates (a one-shot `skillhost call`; issue #9). The first worker
    /// launched for a `process` plugin adopts it and only then learns which plugin to load
    /// (``WorkerLoadOrder``); a call refused by a gate never loads its plugin. ``shutdown()`` kills a spare
    /// nobody adopted.
    public func startSpareWorker() async {
        await prestartHolder().start(executable: helperExecutable)
    }

    /// Keeps a spare the process forked for itself (``SpareWorker/forkEarly(executable:)``), as
    /// ``startSpareWorker()`` would have started one.
    package func holdSpareWorker(_ spare: SpareWorker) {
        prestartHolder().hold(spare)
    }

    private func prestartHolder() -> WorkerPrestart {
        prestart.withLock { current in
            if let current { return current }
            let made = WorkerPrestart()
            current = made
            return made
        }
    }
}
