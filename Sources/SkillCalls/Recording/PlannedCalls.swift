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
        /// Calls with the same key that ended in this process since its message was stored, newest first
        /// (``remember(_:callID:key:session:)``; only for a call whose earlier calls were read).
        var ended: [CallRecord] = []
    }

    /// The planned calls by call id; how looked-up calls ended is kept in the plans that wait for it, so
    /// nothing outlives the message's calls (a long chat does not grow this, and a call with no twin
    /// planned costs no bookkeeping when it ends).
    private let calls = Mutex<[String: Plan]>([:])

    /// An empty plan.
    public init() {}

    /// Remembers `call` (its row not written yet; the latest message's calls replace older ones of the same
    /// id). `earlier` was read in the transaction that stored the call's message, after the finishes of
    /// every call of the session that had ended (they are written first).
    package func plan(_ call: CallRecord, earlier: [CallRecord]? = nil) {
        calls.withLock { $0[call.callID] = Plan(call: call, earlier: earlier) }
    }

    /// The idempotency key planned for `callID` and the session's calls with that key, newest first: those
    /// that ended in this process since its message was stored (``remember(_:callID:key:session:)``), then
    /// those read with its message (nil when they were not read); nil when `callID` is not planned. One
    /// lookup for the recorder's decision.
    package func decisionInputs(of callID: String) -> (idempotencyKey: String?, earlier: [CallRecord]?)? {
        calls.withLock { plans in
            guard let plan = plans[callID] else { return nil }
            return (plan.call.idempotencyKey, plan.earlier.map { plan.ended.isEmpty ? $0 : plan.ended + $0 })
        }
    }

    /// The session's calls with the idempotency key of planned call `callID`, newest first (see
    /// ``decisionInputs(of:)``); nil when they were not read.
    package func earlierCalls(of callID: String) -> [CallRecord]? { decisionInputs(of: callID)?.earlier ?? nil }

    /// Hands how call `callID` ended (`ended`, made only when needed) to the planned calls of `session`
    /// with idempotency `key` that were looked up and have not started: their decisions come after it. The
    /// calls planned later read it from the database, where it is written before their lookup.
    package func remember(_ ended: () -> CallRecord, callID: String, key: String, session: String) {
        calls.withLock { plans in
            var record: CallRecord?
            // Indexes, not `plans.indices` (which holds a reference to the storage: the first change would copy it).
            var index = plans.startIndex
            while index != plans.endIndex {
                defer { plans.formIndex(after: &index) }
                let (id, plan) = plans[index]
                guard plan.earlier != nil, !plan.started, id != callID, plan.call.idempotencyKey == key, plan.call.sessionID == session
                else { continue }
                if record == nil { record = ended() }
                plans.values[index].ended.insert(record!, at: 0)
            }
        }
    }

    /// How many call outcomes are remembered (all plans).
    package var rememberedCount: Int { calls.withLock { $0.values.reduce(0) { $0 + $1.ended.count } } }

    /// Marks `callID` as running since `milliseconds`; false when it is not planned.
    package func start(_ callID: String, at milliseconds: Int64) -> Bool {
        calls.withLock { plans in
            // One lookup: the plan is changed in place through its index.
            guard let index = plans.index(forKey: callID) else { return false }
            plans.values[index].started = true
            plans.values[index].call.startedMilliseconds = milliseconds
            return true
        }
    }

    /// The planned call `callID`, removed from the plan; nil when there is none.
    package func take(_ callID: String) -> CallRecord? { calls.withLock { $0.removeValue(forKey: callID)?.call } }

    /// The planned call `callID` if it never started, removed from the plan.
    package func takeUnstarted(_ callID: String) -> CallRecord? {
        calls.withLock { plans in
            guard let plan = plans[callID], !plan.started else { return nil }
            plans[callID] = nil
            return plan.call
        }
    }
}
