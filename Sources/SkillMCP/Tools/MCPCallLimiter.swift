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

    /// A limit.
    public init(group: String, limit: Int) {
        self.group = group
        self.limit = max(1, limit)
    }
}

/// The counting gate behind ``MCPCallLimit``. A call that finds a free place takes it without suspending;
/// others wait in order.
final class MCPCallLimiter: Sendable {
    private struct Waiter {
        var ticket: Int
        var continuation: CheckedContinuation<Bool, Never>
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

    private struct State {
        var running: [String: Int] = [:]
        var waiting: [String: Queue] = [:]
        var nextTicket = 0

        /// Takes a place when one is free and nobody waits for it.
        mutating func take(_ limit: MCPCallLimit) -> Bool {
            guard running[limit.group, default: 0] < limit.limit, waiting[limit.group]?.isEmpty ?? true else { return false }
            running[limit.group, default: 0] += 1
            return true
        }
    }

    private let state = Mutex(State())

    /// Waits for a place in `limit.group`; false when the task was cancelled while waiting.
    func acquire(_ limit: MCPCallLimit) async -> Bool {
        let ticket: Int? = state.withLock { state in
            if state.take(limit) { return nil }
            state.nextTicket += 1
            return state.nextTicket
        }
        guard let ticket else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    if state.take(limit) { return true }  // freed since the first look
                    state.waiting[limit.group, default: Queue()].append(Waiter(ticket: ticket, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let removed: Waiter? = state.withLock { state in
                state.waiting[limit.group]?.remove(ticket: ticket)
            }
            removed?.continuation.resume(returning: false)
        }
    }

    /// Gives the place back: the first waiter of the group gets it.
    func release(_ limit: MCPCallLimit) {
        let next: Waiter? = state.withLock { state in
            if let first = state.waiting[limit.group]?.popFirst() {
                return first  // the place passes on; `running` is unchanged
            }
            state.running[limit.group, default: 1] -= 1
            return nil
        }
        next?.continuation.resume(returning: true)
    }
}
