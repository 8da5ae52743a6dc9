/// How one plugin's worker pool runs (registry `isolation: process`, `max_workers`, `limits`).
public struct WorkerPoolConfiguration: Sendable {
    /// Normalized plugin id (for messages and the health store).
    public var pluginID: String
    /// Absolute path of the plugin file.
    public var pluginPath: String
    /// The `skillhost` executable, started as `skillhost __worker FILE`.
    public var workerExecutable: String
    /// Most worker processes running at once; further calls wait for a free one. At least 1.
    public var maxWorkers: Int
    /// Limits each worker applies before loading the plugin.
    public var limits: ResourceLimits
    /// Seconds a worker may take to load the plugin and report ready.
    public var startupTimeout: Double
    /// Back-off and give-up rules after crashes.
    public var crashPolicy: CrashPolicy
    /// Where crashes are counted across processes and broken plugins are recorded; nil keeps the count in
    /// this pool only.
    public var healthStore: PluginHealthStore?
    /// The sandbox each worker enters before loading the plugin; nil = none (see ``SandboxPolicy``).
    public var sandbox: SandboxPolicy? = nil
    /// Each worker's whole environment: an allow-list, never the host's (``WorkerEnvironment``).
    public var environment: [String] = WorkerEnvironment.base()
    /// Where the workers' stderr goes, line by line (``PluginOutputSink``); the pipe is read either way.
    public var output: PluginOutputSink = .discard
    /// Where a worker started ahead of need waits to be adopted by this pool's first launch (``WorkerPrestart``);
    /// nil = every worker is spawned when it is needed.
    public var prestart: WorkerPrestart? = nil
    /// Calls a pipelined caller (one with a ``CallReplyPoller``, `skillhost mcp`) may have queued in one
    /// worker at once (`WorkerSlot+Queue.swift`); 1 turns queueing off. At most ``maximumQueueDepth``.
    public var queueDepth: Int = WorkerPoolConfiguration.defaultQueueDepth {
        didSet { queueDepth = min(max(1, queueDepth), Self.maximumQueueDepth) }
    }
    /// The default ``queueDepth``: enough for one wake-up of a worker to serve a burst, few enough that a
    /// burst spreads over the pool's workers.
    public static let defaultQueueDepth = 8
    /// The largest ``queueDepth``.
    public static let maximumQueueDepth = 8

    public init(
        pluginID: String, pluginPath: String, workerExecutable: String, maxWorkers: Int = 2,
        limits: ResourceLimits = .defaults, startupTimeout: Double = 10, crashPolicy: CrashPolicy = CrashPolicy(),
        healthStore: PluginHealthStore? = nil
    ) {
        self.pluginID = pluginID
        self.pluginPath = pluginPath
        self.workerExecutable = workerExecutable
        self.maxWorkers = max(1, maxWorkers)
        self.limits = limits
        self.startupTimeout = startupTimeout
        self.crashPolicy = crashPolicy
        self.healthStore = healthStore
    }
}
