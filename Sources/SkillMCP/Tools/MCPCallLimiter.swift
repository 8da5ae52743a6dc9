import Synchronization

/// How many calls of a group of skills may be inside the backend at once: the host's worker pool runs
/// `max_workers` calls of a plugin at a time and counts the wait for a free worker against the skill's
/// timeout, so the server keeps the rest of a pipelined burst waiting here instead (the wait here is not
/// timed). A cancelled waiter leaves the queue.
public struct MCPCallLimit: Sendable, Equatable {
    /// Skills with the same group share the limit (the host: one plugin file and isolation mode).
    public var group: String
    /// Calls at once.
    public var limit: Int
    /// The group as the limiter keys it: its name's hash is taken once, here, not twice per call (a group
    /// names a plugin file by its path).
    var key: GroupKey { GroupKey(name: group, hash: groupHash) }
    private var groupHash: Int

    /// A limit.
    public init(group: String, limit: Int) {
        self.group = group
        self.limit = max(1, limit)
        groupHash = group.hashValue
    }

    /// A group's name with its hash.
    struct GroupKey: Hashable {
        let name: String
        let hash: Int

        static func == (lhs: GroupKey, rhs: GroupKey) -> Bool { lhs.hash == rhs.hash && lhs.name == rhs.name }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }
}

/// The counting gate behind ``MCPCallLimit``. A call that finds a free place starts at once; the others
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
        mutating func take(_ limit: MCPCallLimit, else waiter: Waiter) -> Bool {
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

    private let groups = Mutex<[MCPCallLimit.GroupKey: Group]>([:])

    /// Takes a place in `limit.group` and returns true, or queues `start` (to run once a place passes to
    /// it) and returns false. `ticket` names the waiter for ``cancel(_:ticket:)``.
    func takeOrQueue(_ limit: MCPCallLimit, ticket: Int, start: @escaping Start) -> Bool {
        groups.withLock { groups in
            groups[limit.key, default: Group()].take(limit, else: Waiter(ticket: ticket, start: start))
        }
    }

    /// Removes a waiter that has not started; false when it is not queued (it started, or never waited).
    func cancel(_ limit: MCPCallLimit, ticket: Int) -> Bool {
        groups.withLock { groups in groups[limit.key]?.waiting.remove(ticket: ticket) } != nil
    }

    /// Gives the place back: the first waiter of the group gets it and starts, on this thread.
    func release(_ limit: MCPCallLimit) {
        let next: Waiter? = groups.withLock { groups in groups[limit.key]?.release() }
        next?.start()
    }
}
