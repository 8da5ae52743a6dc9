import Synchronization

/// Which worker process ran a skill call, for the caller's records (the history's `worker_pid`).
///
/// The caller hands one over in ``InvocationOptions/attribution`` (or binds one around
/// ``SkillHost/invoke(skillID:arguments:options:)`` as ``current``); the worker executor fills
/// it in once the call's worker has answered or failed, so a call that timed out or crashed still names its
/// worker. A call that ran in this process (`isolation: inprocess`) or never reached a worker leaves it
/// empty.
///
/// ```swift
/// let attribution = WorkerAttribution()
/// let result = await WorkerAttribution.$current.withValue(attribution) { await backend.run(invocation) }
/// attribution.workerPID  // nil: the call ran in this process
/// ```
public final class WorkerAttribution: Sendable {
    private let pid = Atomic<Int32>(0)

    /// An empty attribution.
    public init() {}

    /// The pid of the worker process that ran the call, or nil.
    public var workerPID: Int32? {
        let value = pid.load(ordering: .acquiring)
        return value > 0 ? value : nil
    }

    /// Records that worker `workerPID` ran the call.
    func record(_ workerPID: Int32) { pid.store(workerPID, ordering: .releasing) }

    /// The attribution the current task's skill call reports to (nil: nobody asked).
    @TaskLocal public static var current: WorkerAttribution?
}
