import SkillStore
import Synchronization

/// Skill calls an assistant message asked for, handed from ``PersistentHistory`` (which stores the message,
/// whose `tool_calls` entries name each call's skill and idempotency key) to ``StoreCallRecorder``: a
/// planned call needs no write before it runs, and its row is written whole with its finish
/// (``HistoryStore/recordFinish(of:with:context:)``). Thread-safe.
public final class PlannedCalls: Sendable {
    private struct Plan {
        var call: CallRecord
        var started = false
        /// The session's earlier calls with the call's idempotency key, read when its message was stored
        /// (nil when they were not read: idempotent skills).
        var earlier: [CallRecord]?
    }

    private let calls = Mutex<[String: Plan]>([:])
    /// How calls that were looked up ended in this process, newest first, by session and idempotency key;
    /// only since the session's last lookup (see ``plan(_:earlier:)``), so it holds one reply's calls at
    /// most instead of growing with every call of a long chat.
    private let outcomes = Mutex<[String: [String: [CallRecord]]]>([:])

    /// An empty plan.
    public init() {}

    /// Remembers `call` (its row not written yet; the latest message's calls replace older ones of the same id).
    func plan(_ call: CallRecord, earlier: [CallRecord]? = nil) {
        calls.withLock { $0[call.callID] = Plan(call: call, earlier: earlier) }
        // `earlier` was read in the transaction that stored the call's message, after the finishes of every
        // call of the session that had ended (they are written first): what this process remembered of
        // them is in the database now. (Calls of one message are all planned before any of them runs.)
        if earlier != nil { outcomes.withLock { _ = $0.removeValue(forKey: call.sessionID) } }
    }

    /// The session's calls with the idempotency key of planned call `callID`, newest first: those that
    /// ended in this process since (``remember(_:)``), then those read with its message; nil when they
    /// were not read.
    func earlierCalls(of callID: String) -> [CallRecord]? {
        guard
            let (session, key, earlier) = calls.withLock({ plans in
                plans[callID].flatMap { plan in plan.earlier.map { (plan.call.sessionID, plan.call.idempotencyKey, $0) } }
            })
        else { return nil }
        guard let key, let ended = outcomes.withLock({ $0[session]?[key] }) else { return earlier }
        return ended + earlier
    }

    /// Remembers how a call that was looked up ended (by its session and idempotency key), for the
    /// decisions of later calls with the same key planned before it ended.
    func remember(_ call: CallRecord) {
        guard let key = call.idempotencyKey else { return }
        outcomes.withLock { $0[call.sessionID, default: [:]][key, default: []].insert(call, at: 0) }
    }

    /// How many call outcomes are remembered (all sessions).
    var rememberedCount: Int { outcomes.withLock { $0.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } } }

    /// The idempotency key planned for `callID`, if any.
    func idempotencyKey(of callID: String) -> String? { calls.withLock { $0[callID]?.call.idempotencyKey } }

    /// Marks `callID` as running since `milliseconds`; false when it is not planned.
    func start(_ callID: String, at milliseconds: Int64) -> Bool {
        calls.withLock { plans in
            // One lookup: the plan is changed in place through its index.
            guard let index = plans.index(forKey: callID) else { return false }
            plans.values[index].started = true
            plans.values[index].call.startedMilliseconds = milliseconds
            return true
        }
    }

    /// The planned call `callID`, removed from the plan; nil when there is none.
    func take(_ callID: String) -> CallRecord? { calls.withLock { $0.removeValue(forKey: callID)?.call } }

    /// The planned call `callID` if it never started, removed from the plan.
    func takeUnstarted(_ callID: String) -> CallRecord? {
        calls.withLock { plans in
            guard let plan = plans[callID], !plan.started else { return nil }
            plans[callID] = nil
            return plan.call
        }
    }
}
