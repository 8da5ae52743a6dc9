import Synchronization

/// Rows of skill calls written ahead with the assistant message that asks for them
/// (``PersistentHistory``), handed to ``StoreCallRecorder`` when each call starts: the call then needs no
/// write of its own before it runs. Thread-safe.
public final class PlannedCalls: Sendable {
    private let rows = Mutex<[String: (row: Int64, idempotencyKey: String?)]>([:])

    /// An empty plan.
    public init() {}

    /// Remembers the row of call `callID`, written with `idempotencyKey` (the latest message's calls replace
    /// older ones of the same id).
    func plan(_ row: Int64, callID: String, idempotencyKey: String? = nil) {
        rows.withLock { $0[callID] = (row, idempotencyKey) }
    }

    /// The idempotency key the row of `callID` was written with, if any.
    func idempotencyKey(of callID: String) -> String? { rows.withLock { $0[callID]?.idempotencyKey } }

    /// The row written ahead for `callID` and its key, removed from the plan; nil when there is none.
    func take(_ callID: String) -> (row: Int64, idempotencyKey: String?)? { rows.withLock { $0.removeValue(forKey: callID) } }
}
