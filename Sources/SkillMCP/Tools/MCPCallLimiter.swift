import SkillCalls
import Synchronization

/// The counting gate behind ``CallLimit``. A call that finds a free place starts at once; the others
/// wait in order as a start closure, not as a suspended task: a call's task exists only once it holds a
/// place, so a pipelined burst costs no suspension, continuation or cancellation handler per waiting call.
final class MCPCallLimiter: Sendable {
    /// Starts a call that now holds a place (``release(_:)`` runs it on the releasing thread).
    typealias Start = @Sendable () -> Void

    private struct Waiter {
        var ticket: Int
        var start: Start
    }

    /// Waiters in arrival order; taking the first is O(1) (a pipelined burst queues hundreds).
    private struct Queue {
        var items: [Waiter] = []
        var head = 0
        var isEmpty: Bool { head == items.count }

        mutating func append(_ waiter: Waiter) { items.append(waiter) }

        mutating func popFirst() -> Waiter? {
            guard !isEmpty else { return nil }
            let first = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 256, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return first
        }

        mutating func remove(ticket: Int) -> Waiter? {
            guard let index = items[head...].firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return items.remove(at: index)
        }
    }

    /// Places taken and waiters of one group.
    private struct Group {
        var running = 0
        var waiting = Queue()

        /// Takes a place when one is free and nobody waits for it; else queues `waiter`.
        mutating func take(_ limit: CallLimit, else waiter: Waiter) -> Bool {
            if running < limit.limit, waiting.isEmpty {
                running += 1
                return true
            }
            waiting.append(waiter)
            return false
        }

        /// The waiter the place passes to (`running` unchanged), or nil when the place is free again.
        mutating func release() -> Waiter? {
            if let first = waiting.popFirst() { return first }
            running = max(0, running - 1)
            return nil
        }
    }

    private let groups = Mutex<[CallLimit.GroupKey: Group]>([:])

    /// Takes a place in `limit.group` and returns true, or queues `start` (to run once a place passes to
    /// it) and returns false. `ticket` names the waiter for ``cancel(_:ticket:)``.
    func takeOrQueue(_ limit: CallLimit, ticket: Int, start: @escaping Start) -> Bool {
        groups.withLock { groups in
            groups[limit.key, default: Group()].take(limit, else: Waiter(ticket: ticket, start: start))
        }
    }

    /// Removes a waiter that has not started; false when it is not queued (it started, or never waited).
    func cancel(_ limit: CallLimit, ticket: Int) -> Bool {
        groups.withLock { groups in groups[limit.key]?.waiting.remove(ticket: ticket) } != nil
    }

    /// Gives the place back: the first waiter of the group gets it and starts, on this thread.
    func release(_ limit: CallLimit) {
        let next: Waiter? = groups.withLock { groups in groups[limit.key]?.release() }
        next?.start()
    }
}
