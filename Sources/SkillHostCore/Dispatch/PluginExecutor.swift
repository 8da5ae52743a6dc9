import SkillJSON

/// One call of one skill, as the dispatcher hands it to an executor. Arguments are already validated.
public struct SkillCall: Sendable {
    /// Normalized plugin id.
    public var pluginID: String
    /// Absolute path of the plugin file.
    public var pluginPath: String
    /// Normalized skill id.
    public var skillID: String
    /// The validated arguments (a JSON object).
    public var arguments: JSONValue
    /// Unique id of this call.
    public var callID: String
    /// Session id, "" outside a session.
    public var sessionID: String
    /// Same for retries of one logical call.
    public var idempotencyKey: String
    /// The call's clock: its time limit (manifest default or registry override), started when the host
    /// dispatched the call.
    public var deadline: CallDeadline
    /// Time limit in seconds.
    public var timeout: Double { deadline.seconds }
    /// The plugin's configuration from the registry (`{}` when none).
    public var configuration: JSONValue
    /// Folder the plugin may keep data in (created before the call).
    public var dataDirectory: String
    /// The session's execution context, shared with later skills.
    public var sessionContext: SessionContext
    /// Where the executor names the worker process that ran the call (``InvocationOptions/attribution``);
    /// nil: the task's ``WorkerAttribution/current``.
    public var attribution: WorkerAttribution?

    /// Creates a call whose clock is `deadline`.
    public init(
        pluginID: String, pluginPath: String, skillID: String, arguments: JSONValue, callID: String,
        sessionID: String = "", idempotencyKey: String = "", deadline: CallDeadline, configuration: JSONValue = [:],
        dataDirectory: String, sessionContext: SessionContext = SessionContext()
    ) {
        self.pluginID = pluginID
        self.pluginPath = pluginPath
        self.skillID = skillID
        self.arguments = arguments
        self.callID = callID
        self.sessionID = sessionID
        self.idempotencyKey = idempotencyKey
        self.deadline = deadline
        self.configuration = configuration
        self.dataDirectory = dataDirectory
        self.sessionContext = sessionContext
    }

    /// Creates a call whose clock of `timeout` seconds starts now.
    public init(
        pluginID: String, pluginPath: String, skillID: String, arguments: JSONValue, callID: String,
        sessionID: String = "", idempotencyKey: String = "", timeout: Double, configuration: JSONValue = [:],
        dataDirectory: String, sessionContext: SessionContext = SessionContext()
    ) {
        self.init(
            pluginID: pluginID, pluginPath: pluginPath, skillID: skillID, arguments: arguments, callID: callID,
            sessionID: sessionID, idempotencyKey: idempotencyKey, deadline: CallDeadline(seconds: timeout),
            configuration: configuration, dataDirectory: dataDirectory, sessionContext: sessionContext)
    }
}

/// Runs the skills of one plugin: in this process (`InProcessExecutor`) or in worker processes
/// (`WorkerPoolExecutor`). Thread-safe: several calls may be in flight at once; an executor serializes them
/// itself when the plugin is not `thread_safe`.
public protocol PluginExecutor: Sendable {
    /// Runs one call and returns the skill's result JSON.
    /// - Throws: ``HostError`` with kind `skillFailed`, `invalidArguments`, `timeout`, `pluginCrashed`,
    ///   `cancelled`, `denied` or `invalidPlugin`. Cancelling the calling task cancels the call.
    nonisolated(nonsending) func execute(_ call: SkillCall) async throws(HostError) -> JSONValue

    /// Stops workers and releases what the executor holds. Calls after this fail.
    func shutdown() async
}
