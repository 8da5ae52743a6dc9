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

    /// Waiters in arrival order, in a ring: appending and taking the first are O(1) and move no other
    /// waiter (a pipelined burst queues thousands; shifting them down cost more than the calls' own work).
    /// A cancelled waiter leaves a hole that taking the first skips.
    private struct Queue {
        private var slots: [Waiter?] = []
        /// Where the first waiter (or hole) is.
        private var head = 0
        /// Waiters and holes from `head` on.
        private var used = 0
        /// Waiters, holes not counted.
        private var waiting = 0
        var isEmpty: Bool { waiting == 0 }

        mutating func append(_ waiter: Waiter) {
            if used == slots.count { grow() }
            slots[(head + used) % slots.count] = waiter
            used += 1
            waiting += 1
        }

        mutating func popFirst() -> Waiter? {
            while used > 0 {
                let first = slots[head].take()
                head = (head + 1) % slots.count
                used -= 1
                if let first {
                    waiting -= 1
                    return first
                }
            }
            return nil
        }

        mutating func remove(ticket: Int) -> Waiter? {
            for offset in 0..<used {
                let index = (head + offset) % slots.count
                if slots[index]?.ticket == ticket {
                    waiting -= 1
                    return slots[index].take()
                }
            }
            return nil
        }

        /// Twice the room, the waiters in order from index 0.
        private mutating func grow() {
            var grown = [Waiter?](repeating: nil, count: max(16, slots.count * 2))
            for offset in 0..<used { grown[offset] = slots[(head + offset) % slots.count].take() }
            slots = grown
            head = 0
        }
    }

    /// Places taken and waiters of one group.
    private struct Group {
        var running = 0
        var waiting = Queue()

        /// Takes a place when one is free and nobody waits for it; else queues the waiter `ticket` with the
        /// start closure `start` makes.
        mutating func take(_ limit: CallLimit, ticket: Int, else start: () -> Start) -> Bool {
            if running < limit.limit, waiting.isEmpty {
                running += 1
                return true
            }
            waiting.append(Waiter(ticket: ticket, start: start()))
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

    /// Takes a place in `limit.group` and returns true, or queues the closure `start` makes (to run once a
    /// place passes to it) and returns false. `ticket` names the waiter for ``cancel(_:ticket:)``. The
    /// closure is made only for a call that waits (making it costs an allocation).
    func takeOrQueue(_ limit: CallLimit, ticket: Int, start: () -> Start) -> Bool {
        groups.withLock { groups in
            groups[limit.key, default: Group()].take(limit, ticket: ticket, else: start)
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
