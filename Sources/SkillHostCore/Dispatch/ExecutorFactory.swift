/// Chooses and makes the ``PluginExecutor`` for a plugin from its registry `isolation` mode.
///
/// `inprocess` uses ``InProcessExecutor``; `process` uses the worker-pool maker. A factory without a worker
/// maker refuses `process` plugins instead of running them in the host: unknown plugin code never runs in the
/// host process unless the registry asks for `inprocess` for that plugin.
public struct ExecutorFactory: Sendable {
    /// What a maker gets: the plugin (with manifest and registry settings) and the host's paths.
    public struct Request: Sendable {
        /// The plugin, with its manifest and registry settings.
        public var plugin: PluginRecord
        /// The host's folders (cache, data).
        public var paths: HostPaths
        /// The `skillhost` executable to start as a worker.
        public var helperExecutable: String
        /// Where the host keeps a worker started ahead of need, for the first launch to adopt.
        public var workerPrestart: WorkerPrestart? = nil
        /// Where the plugin's stderr goes (its workers' pipes are read either way).
        public var output: PluginOutputSink = .discard
        /// Where the host's lines for a person go (an in-process plugin's log lines among them).
        public var diagnostics: DiagnosticSink = .discard
    }

    /// Makes an executor for one plugin.
    public typealias Maker = @Sendable (Request) throws(HostError) -> any PluginExecutor

    /// Makes in-process executors.
    public var inProcess: Maker
    /// Makes worker-process executors; nil = `process` plugins are refused.
    public var process: Maker?

    /// Creates a factory; with `process` nil, plugins in `process` isolation (the default) are refused.
    public init(inProcess: @escaping Maker = ExecutorFactory.makeInProcess, process: Maker? = nil) {
        self.inProcess = inProcess
        self.process = process
    }

    /// The executors the host uses by default: ``InProcessExecutor`` for `inprocess`, the worker pool
    /// (``WorkerPoolExecutor``) for `process`.
    public static var standard: ExecutorFactory { ExecutorFactory(process: WorkerPoolExecutor.maker) }

    /// The maker for `mode`.
    public func maker(for mode: IsolationMode) -> Maker {
        switch mode {
        case .inprocess: return inProcess
        case .process:
            if let process { return process }
            return Self.refuseWithoutWorkers
        }
    }

    /// What `process` plugins get from a factory without a worker maker: a refusal, never the host process.
    static let refuseWithoutWorkers: Maker = { request throws(HostError) in
        throw HostError(.denied,
            "plugin \(request.plugin.id) runs in a worker process (isolation \"process\") but this host was made without a worker executor; use ExecutorFactory.standard, or set isolation \"inprocess\" for it in the registry if you trust it",
            pluginID: request.plugin.id)
    }

    /// Makes an ``InProcessExecutor``.
    public static let makeInProcess: Maker = { request throws(HostError) in
        guard let manifest = request.plugin.manifest else {
            throw HostError(.invalidPlugin, "\(request.plugin.path): has no usable manifest", pluginID: request.plugin.id)
        }
        return InProcessExecutor(
            path: request.plugin.path, expectedManifest: manifest.document, threadSafe: manifest.threadSafe,
            diagnostics: request.diagnostics)
    }
}
