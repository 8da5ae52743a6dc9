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

/// The counting gate behind ``MCPCallLimit``.
actor MCPCallLimiter {
    private var running: [String: Int] = [:]
    private var waiting: [String: [(ticket: Int, continuation: CheckedContinuation<Bool, Never>)]] = [:]
    private var nextTicket = 0

    /// Waits for a place in `limit.group`; false when the task was cancelled while waiting.
    func acquire(_ limit: MCPCallLimit) async -> Bool {
        if running[limit.group, default: 0] < limit.limit, waiting[limit.group, default: []].isEmpty {
            running[limit.group, default: 0] += 1
            return true
        }
        nextTicket += 1
        let ticket = nextTicket
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    waiting[limit.group, default: []].append((ticket, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(ticket, in: limit.group) }
        }
    }

    /// Gives the place back: the next waiter of the group gets it.
    func release(_ limit: MCPCallLimit) {
        if var queue = waiting[limit.group], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[limit.group] = queue
            next.continuation.resume(returning: true)  // the place passes on; `running` is unchanged
        } else {
            running[limit.group, default: 1] -= 1
        }
    }

    private func cancel(_ ticket: Int, in group: String) {
        guard var queue = waiting[group], let index = queue.firstIndex(where: { $0.ticket == ticket }) else { return }
        let removed = queue.remove(at: index)
        waiting[group] = queue
        removed.continuation.resume(returning: false)
    }
}
