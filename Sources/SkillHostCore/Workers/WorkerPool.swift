import Synchronization

/// Hands out a plugin's worker slots: at most `maxWorkers` exist; a call takes a free one or waits in line
/// (first come, first served). Also keeps the pool's crash count for back-off. Thread-safe.
final class WorkerPool: Sendable {
    private struct State {
        var idle: [WorkerSlot] = []
        var created = 0
        var waiters: [(id: UInt64, continuation: UnsafeContinuation<WorkerSlot?, Never>)] = []
        var withdrawnWaiters: Set<UInt64> = []
        var nextWaiterID: UInt64 = 0
        var isShutDown = false
        var consecutiveCrashes = 0
        var lastCrash: Double = 0
        var broken: String?
        var all: [WorkerSlot] = []
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

    /// Why the plugin is refused, once it crashed too often.
    var brokenReason: String? { state.withLock { $0.broken } }

    /// Crashes in a row and when the last one happened (monotonic seconds).
    var crashState: (count: Int, last: Double) { state.withLock { ($0.consecutiveCrashes, $0.lastCrash) } }

    /// A free slot, waiting for one when all are busy. Returns nil when the task is cancelled, the pool shut
    /// down, or `deadline` (CLOCK_MONOTONIC nanoseconds) passed while waiting.
    nonisolated(nonsending) func acquire(deadline: UInt64) async -> WorkerSlot? {
        enum Immediate { case slot(WorkerSlot), create, wait(UInt64), refused }
        let immediate: Immediate = state.withLock { state in
            if state.isShutDown { return .refused }
            if let slot = state.idle.popLast() { return .slot(slot) }
            if state.created < capacity {
                state.created += 1
                return .create
            }
            state.nextWaiterID += 1
            return .wait(state.nextWaiterID)
        }
        switch immediate {
        case .slot(let slot): return slot
        case .refused: return nil
        case .create:
            let slot = WorkerSlot()
            state.withLock { $0.all.append(slot) }
            return slot
        case .wait(let id):
            let now = Posix.monotonicNanoseconds()
            let timer = Task { [self] in
                guard (try? await Task.sleep(nanoseconds: deadline > now ? deadline - now : 0)) != nil else { return }
                withdraw(id)
            }
            defer { timer.cancel() }
            return await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    let resumeNow: Bool = state.withLock { state in
                        if state.withdrawnWaiters.remove(id) != nil || state.isShutDown { return true }
                        state.waiters.append((id, continuation))
                        return false
                    }
                    if resumeNow { continuation.resume(returning: nil) }
                }
            } onCancel: {
                withdraw(id)
            }
        }
    }

    /// Takes waiter `id` out of the line and resumes it with nil (or remembers to, if it is not in line yet).
    private func withdraw(_ id: UInt64) {
        let waiter: UnsafeContinuation<WorkerSlot?, Never>? = state.withLock { state in
            if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                return state.waiters.remove(at: index).continuation
            }
            state.withdrawnWaiters.insert(id)
            return nil
        }
        waiter?.resume(returning: nil)
    }

    /// Gives a slot back: to the first waiter, else to the free list.
    func release(_ slot: WorkerSlot) {
        let waiter: UnsafeContinuation<WorkerSlot?, Never>? = state.withLock { state in
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            state.idle.append(slot)
            return nil
        }
        waiter?.resume(returning: slot)
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
