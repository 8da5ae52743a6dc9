import SkillAgent
import SkillHostCore
import SkillJSON

/// The native skills the server offers as MCP tools, and where their calls go.
///
/// Implementation requirements: thread-safe. ``tools()`` may block (it reads the registry and may scan
/// changed plugin files): the server calls it only from threads it owns. ``run(_:)`` validates the
/// arguments, checks the registry, asks `approval` for skills that need it, and stops when its task is
/// cancelled (see ``SkillBackend``).
public protocol MCPToolBackend: Sendable {
    /// The enabled skills.
    func tools() throws(HostError) -> [AgentTool]
    /// Runs one call.
    nonisolated(nonsending) func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError>
    /// How many calls of each skill (by id) may run at once; skills not named are limited only by the
    /// server's `maximumCallsInFlight`. Called with ``tools()``, from threads the server owns.
    func callLimits() throws(HostError) -> [String: MCPCallLimit]
    /// The server read new requests: calls started from now on may share one look at the backend's
    /// inputs, taken after this call (see ``SkillHost/beginCallBatch()``). Cheap; called per read.
    func inputArrived()
}

extension MCPToolBackend {
    /// No limits of its own.
    public func callLimits() throws(HostError) -> [String: MCPCallLimit] { [:] }
    /// Nothing to share.
    public func inputArrived() {}
}

/// The ``MCPToolBackend`` over a ``SkillHost``: calls go through ``HostSkillBackend`` (the host's
/// validator, registry, gates, approval and executors).
public struct HostMCPBackend: MCPToolBackend {
    /// The host.
    public let host: SkillHost
    private let backend: HostSkillBackend

    /// A backend over `host`; one MCP connection is one session.
    public init(host: SkillHost) {
        self.host = host
        var backend = HostSkillBackend(host: host)
        backend.forwardsCallIDs = true  // the server numbers its calls: no UUID per call
        self.backend = backend
    }

    public func tools() throws(HostError) -> [AgentTool] {
        try host.enabledSkills().map(AgentTool.init)
    }

    public nonisolated(nonsending) func run(_ invocation: SkillInvocation) async -> Result<JSONValue, HostError> {
        await backend.run(invocation)
    }

    public func inputArrived() { host.beginCallBatch() }

    /// Whether the server collects worker replies on its loop (its calls carry a ``CallReplyPoller``): a plugin's
    /// workers then take up to ``WorkerPoolConfiguration/queueDepth`` calls each at once (`WorkerSlot+Queue`).
    public var queuesCalls = false

    /// A plugin's calls share its executor: `max_workers` at once (the same for in-process plugins); with
    /// ``queuesCalls``, `max_workers` × the queue depth for a plugin in worker processes.
    public func callLimits() throws(HostError) -> [String: MCPCallLimit] {
        var limits: [String: MCPCallLimit] = [:]
        for plugin in try host.currentCatalog().plugins {
            let depth = queuesCalls && plugin.settings.isolation == .process ? WorkerPoolConfiguration.defaultQueueDepth : 1
            let limit = MCPCallLimit(
                group: "\(plugin.settings.isolation.rawValue):\(plugin.path)", limit: plugin.settings.maxWorkers * depth)
            for skill in plugin.skills { limits[skill.id] = limit }
        }
        return limits
    }
}
