import Synchronization

/// Rows of skill calls written ahead with the assistant message that asks for them
/// (``PersistentHistory``), handed to ``StoreCallRecorder`` when each call starts: the call then needs no
/// write of its own before it runs. Thread-safe.
public final class PlannedCalls: Sendable {
    private let rows = Mutex<[String: Int64]>([:])

    /// An empty plan.
    public init() {}

    /// Remembers the row of call `callID` (the latest message's calls replace older ones of the same id).
    func plan(_ row: Int64, callID: String) { rows.withLock { $0[callID] = row } }

    /// The row written ahead for `callID`, removed from the plan; nil when there is none.
    func take(_ callID: String) -> Int64? { rows.withLock { $0.removeValue(forKey: callID) } }
}
