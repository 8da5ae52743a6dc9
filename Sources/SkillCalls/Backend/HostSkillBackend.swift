import SkillHostCore
import SkillJSON

/// The ``SkillBackend`` over the host library: tools are the host's enabled skills; ``prepare(skillID:arguments:)``
/// and ``run(_:options:)`` are ``SkillHost/prepare(skillID:arguments:)`` and ``SkillHost/execute(_:options:)``
/// (registry, gates, validation, executors, the deadline).
public struct HostSkillBackend: SkillBackend {
    /// The host.
    public let host: SkillHost

    /// Whether a caller collects worker replies on its own loop (its calls carry a ``CallReplyPoller``): a
    /// plugin's workers then take up to ``WorkerPoolConfiguration/queueDepth`` calls each at once
    /// (`WorkerSlot+Queue`), and ``callLimits()`` allows that many.
    public var queuesCalls = false

    /// A backend over `host`.
    public init(host: SkillHost) { self.host = host }

    public func tools() throws(HostError) -> [SkillTool] {
        try host.enabledSkills().map(SkillTool.init)
    }

    public func prepare(skillID: String, arguments: JSONValue) throws(HostError) -> PreparedCall {
        try host.prepare(skillID: skillID, arguments: arguments)
    }

    /// ``SkillHost/execute(_:options:)``, its executor awaited here (one `async` frame fewer per call).
    public nonisolated(nonsending) func run(_ call: PreparedCall, options: InvocationOptions) async throws(HostError) -> JSONValue {
        let dispatched = try host.dispatch(call, options: options)
        return try await dispatched.executor.execute(dispatched.call)
    }

    public func inputArrived() { host.beginCallBatch() }

    /// A plugin's calls share its executor: `max_workers` at once (the same for in-process plugins); with
    /// ``queuesCalls``, `max_workers` × the queue depth for a plugin in worker processes.
    public func callLimits() throws(HostError) -> [String: CallLimit] {
        var limits: [String: CallLimit] = [:]
        for plugin in try host.currentCatalog().plugins {
            let depth = queuesCalls && plugin.settings.isolation == .process ? WorkerPoolConfiguration.defaultQueueDepth : 1
            let limit = CallLimit(
                group: "\(plugin.settings.isolation.rawValue):\(plugin.path)", limit: plugin.settings.maxWorkers * depth)
            for skill in plugin.skills { limits[skill.id] = limit }
        }
        return limits
    }
}
