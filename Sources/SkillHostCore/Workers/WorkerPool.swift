import Synchronization

/// Hands out a plugin's worker slots: at most `maxWorkers` exist; a call takes a free one or waits in line
/// (first come, first served). A pipelined call (one that may be queued in a worker, `WorkerSlot+Queue.swift`)
/// may instead share a slot whose worker takes queued calls with up to `queueDepth - 1` others: it gets the
/// least shared such slot. Also keeps the pool's crash count for back-off. Thread-safe.
final class WorkerPool: Sendable {
    /// A place in the pool: a slot for this call alone, or shared with other queued calls.
    struct Place {
        let slot: WorkerSlot
        let shared: Bool
    }

    private struct Waiter {
        let id: UInt64
        /// The queue depth a pipelined waiter accepts (nil: it needs a slot of its own).
        let depth: Int?
        let continuation: UnsafeContinuation<Place?, Never>
    }

    private struct State {
        var idle: [WorkerSlot] = []
        /// Slots held by queued calls, with how many hold each.
        var shared: [(slot: WorkerSlot, holders: Int)] = []
        var created = 0
        var waiters: [Waiter] = []
        var withdrawnWaiters: Set<UInt64> = []
        var nextWaiterID: UInt64 = 0
        var isShutDown = false
        var consecutiveCrashes = 0
        var lastCrash: Double = 0
        var broken: String?
        var all: [WorkerSlot] = []
        /// Shared places handed out so far (queued calls).
        var sharedPlaces = 0

        /// A place for a call that accepts `depth` (nil: exclusive), without waiting; `.create` when a new
        /// slot may be made for it.
        mutating func place(depth: Int?, capacity: Int) -> Place?? {
            if let depth, depth > 1 {
                // An idle slot that takes queued calls holds none yet: the least shared of all.
                if let index = idle.firstIndex(where: { $0.acceptsQueuedCalls.load(ordering: .sequentiallyConsistent) }) {
                    let slot = idle.remove(at: index)
                    shared.append((slot, 1))
                    sharedPlaces += 1
                    return Place(slot: slot, shared: true)
                }
                var best: Int?
                for index in shared.indices where shared[index].holders < depth
                    && shared[index].slot.acceptsQueuedCalls.load(ordering: .sequentiallyConsistent)
                    && (best == nil || shared[index].holders < shared[best!].holders)
                {
                    best = index
                }
                if let best {
                    shared[best].holders += 1
                    sharedPlaces += 1
                    return Place(slot: shared[best].slot, shared: true)
                }
            }
            if let slot = idle.popLast() { return Place(slot: slot, shared: false) }
            if created < capacity {
                created += 1
                return .some(nil)
            }
            return nil
        }
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int, consecutiveCrashes: Int = 0, broken: String? = nil) {
        self.capacity = capacity
        state.withLock {
            $0.consecutiveCrashes = consecutiveCrashes
            $0.broken = broken
        }
    }

    /// How many shared places (queued calls) the pool has handed out.
    var sharedPlacesGiven: Int { state.withLock { $0.sharedPlaces } }

    /// Why the plugin is refused, once it crashed too often.
    var brokenReason: String? { state.withLock { $0.broken } }

    /// Crashes in a row and when the last one happened (monotonic seconds).
    var crashState: (count: Int, last: Double) { state.withLock { ($0.consecutiveCrashes, $0.lastCrash) } }

    /// What ``tryAcquire(queueDepth:)`` came to.
    enum Attempt {
        /// A place, or nil when the pool is shut down.
        case done(Place?)
        /// None free: wait in line as waiter `id` (``wait(_:deadline:queueDepth:)``).
        case wait(UInt64)
    }

    /// A place for a call without waiting: with `queueDepth` over 1 a shared place in a slot that takes
    /// queued calls when there is one, else a slot of its own; `.wait` when there is neither. Synchronous,
    /// so that a call that finds a place (nearly all) pays no `async` frame for it.
    func tryAcquire(queueDepth: Int?) -> Attempt {
        enum Immediate { case place(Place), create, wait(UInt64), refused }
        let immediate: Immediate = state.withLock { state in
            if state.isShutDown { return .refused }
            switch state.place(depth: queueDepth, capacity: capacity) {
            case .some(.some(let place)): return .place(place)
            case .some(.none): return .create
            case .none:
                state.nextWaiterID += 1
                return .wait(state.nextWaiterID)
            }
        }
        switch immediate {
        case .place(let place): return .done(place)
        case .refused: return .done(nil)
        case .create:
            let slot = WorkerSlot { [weak self] in self?.serveWaiters() }
            state.withLock { $0.all.append(slot) }
            return .done(Place(slot: slot, shared: false))
        case .wait(let id): return .wait(id)
        }
    }

    /// Waits in line as waiter `id` (from ``tryAcquire(queueDepth:)``) for a place. Nil when the task is
    /// cancelled, the pool shut down, or `deadline` (CLOCK_MONOTONIC nanoseconds) passed while waiting
    /// (`UInt64.max`: none).
    nonisolated(nonsending) func wait(_ id: UInt64, deadline: UInt64, queueDepth: Int?) async -> Place? {
        let now = Posix.monotonicNanoseconds()
        let timer: Task<Void, Never>? = deadline == .max ? nil : Task { [self] in
            guard (try? await Task.sleep(nanoseconds: deadline > now ? deadline - now : 0)) != nil else { return }
            withdraw(id)
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let resumeNow: Bool = state.withLock { state in
                    if state.withdrawnWaiters.remove(id) != nil || state.isShutDown { return true }
                    state.waiters.append(Waiter(id: id, depth: queueDepth, continuation: continuation))
                    return false
                }
                if resumeNow {
                    continuation.resume(returning: nil)
                } else {
                    // A place may have come free between the look above and joining the line.
                    serveWaiters()
                }
            }
        } onCancel: {
            withdraw(id)
        }
    }

    /// Takes waiter `id` out of the line and resumes it with nil (or remembers to, if it is not in line yet).
    private func withdraw(_ id: UInt64) {
        let waiter: UnsafeContinuation<Place?, Never>? = state.withLock { state in
            if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                return state.waiters.remove(at: index).continuation
            }
            state.withdrawnWaiters.insert(id)
            return nil
        }
        waiter?.resume(returning: nil)
    }

    /// Gives a place back, then serves the waiters that can now have one.
    func release(_ place: Place) {
        state.withLock { state in
            if place.shared, let index = state.shared.firstIndex(where: { $0.slot === place.slot }) {
                state.shared[index].holders -= 1
                if state.shared[index].holders == 0 {
                    state.shared.remove(at: index)
                    state.idle.append(place.slot)
                }
            } else {
                state.idle.append(place.slot)
            }
        }
        serveWaiters()
    }

    /// Hands places to waiters in line order while there are places for them.
    func serveWaiters() {
        var served: [(UnsafeContinuation<Place?, Never>, Place)] = []
        state.withLock { state in
            while let first = state.waiters.first {
                // Waiters exist only once every slot was made: a place is an existing slot or none.
                guard case .some(.some(let found)) = state.place(depth: first.depth, capacity: capacity) else { break }
                state.waiters.removeFirst()
                served.append((first.continuation, found))
            }
        }
        for (continuation, place) in served { continuation.resume(returning: place) }
    }

    /// Counts a crash at monotonic time `now`; returns the number in a row. At `limit`, marks the pool
    /// broken with `reason`.
    func recordCrash(at now: Double, limit: Int, reason: @autoclosure () -> String) -> Int {
        state.withLock { state in
            state.consecutiveCrashes += 1
            state.lastCrash = now
            if state.consecutiveCrashes >= limit, state.broken == nil { state.broken = reason() }
            return state.consecutiveCrashes
        }
    }

    /// Marks the pool broken (e.g. the health store says so).
    func markBroken(_ reason: String) { state.withLock { $0.broken = reason } }

    /// Resets the crash count after a call that worked; returns the count it had.
    func recordSuccess() -> Int {
        state.withLock { state in
            defer { state.consecutiveCrashes = 0 }
            return state.consecutiveCrashes
        }
    }

    /// Refuses further calls, wakes waiters (with nil) and returns every slot ever made.
    func shutDown() -> [WorkerSlot] {
        let (waiters, slots) = state.withLock { state in
            state.isShutDown = true
            defer { state.waiters.removeAll() }
            return (state.waiters.map(\.continuation), state.all)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        return slots
    }
}
