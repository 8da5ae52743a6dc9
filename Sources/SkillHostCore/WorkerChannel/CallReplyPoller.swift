import Synchronization

/// Lets a caller that runs its own event loop collect quick worker replies between other work instead of
/// spinning for each: while a task runs with ``current`` set, a worker call whose request went through
/// the shared slot does not spin for the reply; it registers a check here and suspends, and the loop calls
/// ``poll()`` whenever it has nothing else to do. A reply that is not there within 2 ms is handed to the worker slot's own thread, which waits for it on the pipe as usual
/// (timeouts, crashes and cancellation behave exactly as without a poller).
///
/// Under a pipelined burst this keeps two workers busy from one thread: the loop prepares the next call
/// (parse, checks, validation) while a worker runs the last one. `skillhost mcp` sets it for its calls.
/// Thread-safe; ``poll()`` runs the checks on the calling thread.
public final class CallReplyPoller: Sendable {
    /// A check: true when its call is settled (resumed, or handed to the slot's thread). The closure is kept
    /// in a struct, not as an array element of function type: an array stores a function at its most
    /// general abstraction, so every trip of a bare closure out of the list and back (a check still waiting
    /// is put back on every poll) wrapped it in two more reabstraction thunks, and a call that waited long
    /// was checked through hundreds of them (CPU per MCP call ×5 under load).
    struct Check: Sendable {
        let isSettled: @Sendable () -> Bool
        /// Readable when the check may have become settled (-1: none; it is found only by polling).
        let descriptor: Int32
        /// When (CLOCK_MONOTONIC nanoseconds) the check becomes settled even with nothing to read: its budget
        /// ends and it hands its call over. `UInt64.max`: only what it reads settles it.
        let due: UInt64
    }

    /// The poller of the calls the current task makes; nil: calls spin for their replies.
    @TaskLocal public static var current: CallReplyPoller?

    private let checks = Mutex<[Check]>([])
    /// The polling thread's buffers, kept between polls so that a poll allocates nothing: the checks taken
    /// out, and those still waiting.
    private let spare = Mutex<(taken: [Check], waiting: [Check])>(([], []))

    /// A poller with no calls.
    public init() {}

    /// Whether some call waits to be polled.
    public var hasPending: Bool { checks.withLock { !$0.isEmpty } }

    /// Checks every waiting call once; returns how many were settled.
    @discardableResult
    public func poll() -> Int {
        spare.withLock { spare in
            checks.withLock { checks in swap(&checks, &spare.taken) }
            guard !spare.taken.isEmpty else { return 0 }
            for check in spare.taken where !check.isSettled() { spare.waiting.append(check) }
            let settled = spare.taken.count - spare.waiting.count
            spare.taken.removeAll(keepingCapacity: true)
            if !spare.waiting.isEmpty {
                // Still waiting, ahead of the checks added meanwhile.
                checks.withLock { checks in
                    swap(&checks, &spare.waiting)
                    checks.append(contentsOf: spare.waiting)
                }
                spare.waiting.removeAll(keepingCapacity: true)
            }
            return settled
        }
    }

    /// The descriptors of the waiting checks, when every one has one: the loop may then sleep until one of
    /// them is readable (or its own input) instead of polling, but not past `due`, the earliest time a check
    /// settles on its own (``add(watching:due:_:)``; `UInt64.max`: none); false when some check must be polled.
    public func descriptors(into watched: inout [Int32], due: inout UInt64) -> Bool {
        watched.removeAll(keepingCapacity: true)
        due = .max
        return checks.withLock { checks in
            for check in checks {
                guard check.descriptor >= 0 else { return false }
                if !watched.contains(check.descriptor) { watched.append(check.descriptor) }
                due = min(due, check.due)
            }
            return !watched.isEmpty
        }
    }

    /// Registers a check; `descriptor` (when given) becomes readable when it may be settled, and at `due`
    /// (CLOCK_MONOTONIC nanoseconds) it is settled whatever was read.
    func add(watching descriptor: Int32 = -1, due: UInt64 = .max, _ isSettled: @escaping @Sendable () -> Bool) {
        checks.withLock { $0.append(Check(isSettled: isSettled, descriptor: descriptor, due: due)) }
    }
}
